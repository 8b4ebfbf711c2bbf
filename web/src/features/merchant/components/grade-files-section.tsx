import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { formatBytes } from '../../../lib/format-bytes';
import { toast } from '../../../lib/toast';
import {
  DEFAULT_DOWNLOADS_PER_PURCHASE,
  MAX_DOWNLOADS_PER_PURCHASE,
  MIN_DOWNLOADS_PER_PURCHASE,
} from '@shared/schemas/digital-products';
import { useGradeFiles } from '../api/list-grade-files';
import { merchantKeys } from '../api/merchant-keys';
import { useRemoveGradeFile } from '../api/remove-grade-file';
import { useUpdateGradeDownloads } from '../api/update-grade-downloads';
import { errorMessage } from '../lib/form-errors';
import { sendFile, type UploadFn, uploadGradeFiles } from '../lib/upload-grade-files';
import { FormAlert } from './form-alert';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

interface Sending {
  name: string;
  sentBytes: number;
  totalBytes: number;
}

/** How many downloads each purchase gets: saved on its own, as it applies from the next download on. */
function DownloadsForm({ userId, gradeId, current }: { userId: string; gradeId: string; current: number }) {
  const update = useUpdateGradeDownloads(userId, gradeId);
  const [typed, setTyped] = useState(String(current));
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(typed);
    if (!/^\d+$/.test(typed.trim()) || value < MIN_DOWNLOADS_PER_PURCHASE || value > MAX_DOWNLOADS_PER_PURCHASE) {
      setProblem(`Give a whole number from ${MIN_DOWNLOADS_PER_PURCHASE} to ${MAX_DOWNLOADS_PER_PURCHASE}`);
      return;
    }
    setProblem(null);
    update.mutate(value, {
      onSuccess: (saved) => toast.success(`Each purchase now gets ${saved.downloadsPerPurchase} downloads`),
    });
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Downloads per purchase">
      <TextField
        label="Downloads per purchase"
        type="number"
        inputMode="numeric"
        min={MIN_DOWNLOADS_PER_PURCHASE}
        max={MAX_DOWNLOADS_PER_PURCHASE}
        step={1}
        value={typed}
        onChange={(event) => {
          setTyped(event.target.value);
          setProblem(null);
        }}
        hint={`How many times a buyer may download each file per purchase (${DEFAULT_DOWNLOADS_PER_PURCHASE} until you change it).`}
        error={problem ?? undefined}
      />
      {update.isError ? <FormAlert message={errorMessage(update.error)} /> : null}
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save downloads'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The files a grade delivers after purchase: uploaded straight to the shop's private space with
 * the transfer app's upload client, listed with their state, removable; and the downloads each
 * purchase gets. Buyers find them on their orders page.
 */
export function GradeFilesSection({
  userId,
  gradeId,
  upload = sendFile,
}: {
  userId: string;
  gradeId: string;
  upload?: UploadFn;
}) {
  const titleId = useId();
  const inputId = useId();
  const queryClient = useQueryClient();
  const files = useGradeFiles(userId, gradeId);
  const remove = useRemoveGradeFile(userId, gradeId);
  const [sending, setSending] = useState<Sending[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  const add = async (picked: File[]) => {
    setProblem(null);
    setSending(picked.map((file) => ({ name: file.name, sentBytes: 0, totalBytes: file.size })));
    try {
      const ready = await uploadGradeFiles(gradeId, picked, {
        upload,
        onProgress: (name, progress) =>
          setSending((current) =>
            current.map((entry) => (entry.name === name ? { ...entry, sentBytes: progress.sentBytes } : entry)),
          ),
      });
      toast.success(ready.length === 1 ? `${ready[0]?.name} is ready for buyers` : `${ready.length} files are ready for buyers`);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSending([]);
      await queryClient.invalidateQueries({ queryKey: merchantKeys.gradeFiles(userId, gradeId) });
    }
  };

  const items = files.data?.items ?? [];
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Files delivered after purchase
      </h2>
      <p className={styles.hint}>
        Buyers download these from their orders page once they have paid. They are kept private: nobody else can reach them.
      </p>
      {files.isError ? <FormAlert message={errorMessage(files.error)} /> : null}
      {items.length > 0 ? (
        <ul aria-label="Delivered files">
          {items.map((file) => (
            <li key={file.id}>
              <span>{file.name}</span> <span>{formatBytes(file.size)}</span>{' '}
              {file.status === 'ready' ? null : <span>(upload not finished)</span>}{' '}
              <Button
                variant="secondary"
                onClick={() => remove.mutate(file.id, { onError: (error) => setProblem(errorMessage(error)) })}
                disabled={remove.isPending}
                aria-label={`Remove ${file.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : files.isSuccess ? (
        <p>No files yet: this grade delivers nothing to download.</p>
      ) : null}
      {sending.map((entry) => (
        <p key={entry.name}>
          Uploading {entry.name}{' '}
          <progress value={entry.sentBytes} max={Math.max(entry.totalBytes, 1)} aria-label={`Uploading ${entry.name}`} />
        </p>
      ))}
      {problem ? <FormAlert message={problem} /> : null}
      <div className={pageStyles.actions}>
        <label htmlFor={inputId}>Add files</label>
        <input
          id={inputId}
          type="file"
          multiple
          disabled={sending.length > 0}
          onChange={(event) => {
            const picked = Array.from(event.currentTarget.files ?? []);
            event.currentTarget.value = '';
            if (picked.length > 0) void add(picked);
          }}
        />
      </div>
      {files.data ? (
        <DownloadsForm
          key={files.data.downloadsPerPurchase}
          userId={userId}
          gradeId={gradeId}
          current={files.data.downloadsPerPurchase}
        />
      ) : null}
    </section>
  );
}
