import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { MAX_FILES_PER_TRANSFER, type PlanLimits } from '@shared/transfers/plans';
import { refusedTransferFile } from '@shared/transfers/file-rules';
import { Button } from '../../../components/button';
import { track } from '../../../lib/analytics';
import { ApiError } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format-bytes';
import { abortUpload } from '../api/abort-upload';
import { addRecipient } from '../api/add-recipient';
import { createFiles } from '../api/create-files';
import { createTransfer } from '../api/create-transfer';
import { deleteFile } from '../api/delete-file';
import { finalizeTransfer } from '../api/finalize-transfer';
import { recordFinalizeTiming } from '../api/record-finalize-timing';
import { type FileView, type TransferSummary, transferKeys } from '../api/transfer-keys';
import { formatDate, looksLikeEmail, plural, transferName } from '../lib/format';
import { SendProgressStore } from '../lib/send-progress';
import { type PickedFile, pickedKey, type SendDeps, sendTransfer, SendSession, type UploadFn } from '../lib/send-transfer';
import { uploadApi } from '../lib/upload-api';
import { uploadFile } from '../lib/upload-client';
import { type UploadTransport, xhrTransport } from '../lib/upload-transport';
import { FilePicker } from './file-picker';
import { OverLimit, ProUpsell } from './pro-upsell';
import { RecipientsField, type RecipientSource, splitAddresses } from './recipients-field';
import { SendProgressView } from './send-progress-view';
import { SentScreen } from './sent-screen';
import styles from './transfers.module.css';

/** A draft the sender started earlier whose upload did not finish. */
export interface ResumableDraft {
  readonly transfer: TransferSummary;
  /** Every file of the draft, pending and ready. */
  readonly files: readonly FileView[];
  readonly recipients: readonly string[];
}

export interface TransferFormProps {
  userId: string;
  limits: PlanLimits;
  resumable?: ResumableDraft | null;
  /** The upload client (tests pass a stand-in). */
  upload?: UploadFn;
  transport?: UploadTransport;
}

interface Sending {
  readonly store: SendProgressStore;
  readonly controller: AbortController;
  readonly files: readonly PickedFile[];
}

class SendCancelled extends Error {
  override readonly name = 'SendCancelled';
}

/** What went wrong, in the words the server or the upload client used. */
function describeError(error: unknown): { message: string; details: string[] } {
  if (error instanceof ApiError) {
    const fields = Array.isArray(error.body?.fields) ? (error.body.fields as { message?: unknown }[]) : [];
    return { message: error.message, details: fields.map((field) => String(field.message ?? '')).filter(Boolean) };
  }
  if (error instanceof Error && error.message) return { message: error.message, details: [] };
  return { message: 'The server did not answer. Check your connection and try again.', details: [] };
}

const sameFile = (server: FileView, file: File) =>
  server.name === file.name && server.size === file.size && server.lastModified === file.lastModified;

/**
 * The transfer form: files (dropped or picked), recipients, title, message and expiry, then Send.
 * Send creates the draft, adds the recipients, creates the file records, uploads the files
 * (three at a time, each in parallel parts) with their progress, finalizes and reports how long
 * it took, then shows where the package is. A failure is shown beside the form with everything
 * kept, and Send carries on from where it stopped.
 */
export function TransferForm({
  userId,
  limits,
  resumable = null,
  upload = uploadFile,
  transport = xhrTransport,
}: TransferFormProps) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const messageId = useId();
  const expiryId = useId();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [recipients, setRecipients] = useState<string[]>([]);
  const [recipientInput, setRecipientInput] = useState('');
  const [recipientError, setRecipientError] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [expiry, setExpiry] = useState(limits.defaultExpiryDays);
  const [formError, setFormError] = useState<string | null>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [sending, setSending] = useState<Sending | null>(null);
  const [sent, setSent] = useState<TransferSummary | null>(null);
  const [resuming, setResuming] = useState<ResumableDraft | null>(null);
  const [offerDismissed, setOfferDismissed] = useState(false);
  /** What this form has done on the server, kept across tries. */
  const session = useRef<SendSession | null>(null);

  const keptBytes = resuming
    ? resuming.files.filter((file) => file.status === 'ready').reduce((sum, file) => sum + file.size, 0)
    : 0;
  const pickedBytes = files.reduce((sum, { file }) => sum + file.size, 0);
  // A ready file of the resumed draft picked again is counted once.
  const repickedBytes = resuming
    ? files
        .filter(({ file }) => resuming.files.some((server) => server.status === 'ready' && sameFile(server, file)))
        .reduce((sum, { file }) => sum + file.size, 0)
    : 0;
  const totalBytes = pickedBytes + keptBytes - repickedBytes;
  const overLimit = totalBytes > limits.maxTransferBytes;
  const expiryDays = Math.min(expiry, limits.maxExpiryDays);
  const busy = sending !== null;

  useEffect(() => track('Transfer Form Opened'), []);

  // Leaving the page mid-upload loses the upload's place on this page: ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const addFiles = (added: File[]) => {
    const problems: string[] = [];
    const fine = added.filter((file) => !refusedTransferFile(file));
    if (fine.length) track('Transfer Files Added', { files: fine.length, bytes: fine.reduce((sum, file) => sum + file.size, 0) });
    setFiles((current) => {
      const next = [...current];
      const keys = new Set(current.map(({ key }) => key));
      for (const file of added) {
        const refused = refusedTransferFile(file);
        if (refused) {
          problems.push(refused);
          continue;
        }
        const key = pickedKey(file);
        if (keys.has(key)) continue;
        if (next.length >= MAX_FILES_PER_TRANSFER) {
          problems.push(`A transfer holds at most ${MAX_FILES_PER_TRANSFER} files: ${file.name} was not added.`);
          continue;
        }
        keys.add(key);
        next.push({ key, file });
      }
      return next;
    });
    setRefusals(problems);
    setFormError(null);
  };

  const addRecipients = (emails: string[], source: RecipientSource) => {
    const invalid = emails.filter((email) => !looksLikeEmail(email));
    const valid = emails.filter((email) => looksLikeEmail(email));
    const known = new Set(recipients.map((email) => email.toLowerCase()));
    const fresh = valid.filter((email) => {
      const key = email.toLowerCase();
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
    const room = Math.max(0, limits.maxRecipients - recipients.length);
    const accepted = fresh.slice(0, room);
    if (accepted.length) setRecipients([...recipients, ...accepted]);
    if (source === 'contact' && accepted.length) {
      track('Contacts Used', { count: accepted.length });
    }
    if (invalid.length) setRecipientError(`${invalid.map((email) => `“${email}”`).join(', ')} is not an email address.`);
    else if (fresh.length > accepted.length) setRecipientError(`Your plan sends to at most ${limits.maxRecipients} recipients.`);
    else setRecipientError(null);
    setRecipientInput(invalid.join(', '));
    setFormError(null);
    return accepted;
  };

  const startResume = (draft: ResumableDraft) => {
    setResuming(draft);
    setTitle(draft.transfer.title);
    setMessage(draft.transfer.message);
    setRecipients([...draft.recipients]);
    session.current = new SendSession({ transfer: draft.transfer, files: draft.files, recipients: draft.recipients });
  };

  const reset = () => {
    session.current = null;
    setFiles([]);
    setRefusals([]);
    setRecipients([]);
    setRecipientInput('');
    setRecipientError(null);
    setTitle('');
    setMessage('');
    setExpiry(limits.defaultExpiryDays);
    setFormError(null);
    setSendError(null);
    setSent(null);
    setResuming(null);
    setOfferDismissed(true);
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || overLimit) return;
    const startedAt = performance.now();
    // An address still in the box counts, as if Add had been pressed.
    let allRecipients = recipients;
    const typed = splitAddresses(recipientInput);
    if (typed.length) {
      allRecipients = [...recipients, ...addRecipients(typed, 'typed')];
      // The field says what is wrong with the address; nothing is sent until it is fixed.
      if (!typed.every(looksLikeEmail)) return;
    }
    const keptFiles = resuming?.files.some((file) => file.status === 'ready') ?? false;
    if (files.length === 0 && !keptFiles) {
      setFormError('Add at least one file.');
      return;
    }
    if (allRecipients.length === 0) {
      setFormError('Add at least one recipient.');
      return;
    }
    setFormError(null);
    setSendError(null);
    track('Transfer Send Clicked', { files: files.length, recipients: allRecipients.length });

    const sendingFiles = [...files];
    const store = new SendProgressStore(sendingFiles.map(({ key, file }) => ({ key, size: file.size })));
    const controller = new AbortController();
    setSending({ store, controller, files: sendingFiles });
    session.current ??= new SendSession();
    const deps: SendDeps = {
      createTransfer: (body) => createTransfer(body),
      addRecipient: (id, email) => addRecipient(id, email),
      createFiles: (id, declared) => createFiles(id, declared),
      finalizeTransfer: (id) => finalizeTransfer(id),
      recordTiming: (id, elapsedMs) => {
        track('Transfer Finalized', { elapsedMs: Math.max(0, Math.round(elapsedMs)) });
        return recordFinalizeTiming(id, elapsedMs);
      },
      abortUpload: (id) => abortUpload(id),
      deleteFile: (id) => deleteFile(id),
      upload,
      uploadApi,
      transport,
      now: () => performance.now(),
    };
    try {
      const transfer = await sendTransfer(
        {
          title,
          message,
          expiresInDays: expiryDays,
          recipients: allRecipients,
          files: sendingFiles,
          startedAt,
          progress: store,
          signal: controller.signal,
        },
        deps,
        session.current,
      );
      setSent(transfer);
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
    } catch (error) {
      setSendError(
        controller.signal.aborted ? new SendCancelled('Sending stopped. Everything is kept: press Send to carry on.') : error,
      );
    } finally {
      store.dispose();
      setSending(null);
    }
  };

  if (sent) return <SentScreen transfer={sent} onSendAnother={reset} />;

  const offer = resumable && !resuming && !offerDismissed && !busy ? resumable : null;
  const waitingFiles = resuming
    ? resuming.files.filter((server) => server.status === 'pending' && !files.some(({ file }) => sameFile(server, file)))
    : [];
  const keptReady = resuming ? resuming.files.filter((server) => server.status === 'ready') : [];
  const problem = sendError ? describeError(sendError) : null;

  return (
    <form className={styles.card} onSubmit={(event) => void send(event)} noValidate aria-label="New transfer">
      {offer ? (
        <section className={styles.notice} aria-label="Unfinished transfer">
          <p>
            <strong>You started “{transferName(offer.transfer)}”</strong> and its upload did not finish (
            {plural(offer.files.filter((file) => file.status === 'pending').length, 'file')} waiting). Pick the same files again
            and only what is missing is sent.
          </p>
          <div className={styles.actions}>
            <Button size="small" onClick={() => startResume(offer)}>
              Resume the transfer you started
            </Button>
            <Button size="small" variant="ghost" onClick={() => setOfferDismissed(true)}>
              Start a new one
            </Button>
          </div>
        </section>
      ) : null}

      {resuming ? (
        <section className={styles.notice} aria-label="Resuming">
          <p>
            <strong>Resuming “{transferName(resuming.transfer)}”.</strong> It expires on {formatDate(resuming.transfer.expiresAt)}
            .
          </p>
          {waitingFiles.length ? (
            <>
              <p>Pick these files again to finish their upload:</p>
              <ul className={styles.alertList} aria-label="Files to pick again">
                {waitingFiles.map((file) => (
                  <li key={file.id}>
                    {file.name} ({formatBytes(file.size)})
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {keptReady.length ? (
            <p>
              Already uploaded: {keptReady.map((file) => file.name).join(', ')} ({formatBytes(keptBytes)}).
            </p>
          ) : null}
        </section>
      ) : null}

      {sending ? (
        <SendProgressView store={sending.store} files={sending.files} />
      ) : (
        <FilePicker
          files={files}
          onAdd={addFiles}
          onRemove={(key) => setFiles((current) => current.filter((one) => one.key !== key))}
        />
      )}
      {refusals.length ? (
        <div className={styles.alert} role="alert">
          <ul className={styles.alertList}>
            {refusals.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {overLimit ? (
        limits.planId === 'free' ? (
          <ProUpsell totalBytes={totalBytes} limitBytes={limits.maxTransferBytes} />
        ) : (
          <OverLimit totalBytes={totalBytes} limitBytes={limits.maxTransferBytes} />
        )
      ) : null}

      <RecipientsField
        userId={userId}
        recipients={recipients}
        value={recipientInput}
        onValueChange={(value) => {
          setRecipientInput(value);
          if (recipientError) setRecipientError(null);
        }}
        onAdd={addRecipients}
        onRemove={(email) => setRecipients((current) => current.filter((one) => one !== email))}
        error={recipientError}
        disabled={busy}
        full={recipients.length >= limits.maxRecipients}
      />

      <div className={styles.fieldRow}>
        <div className={styles.field}>
          <label htmlFor={titleId} className={styles.label}>
            Title
          </label>
          <input
            id={titleId}
            className={styles.input}
            value={title}
            maxLength={200}
            disabled={busy || resuming !== null}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={expiryId} className={styles.label}>
            Expires after
          </label>
          <select
            id={expiryId}
            className={styles.select}
            value={expiryDays}
            disabled={busy || resuming !== null}
            onChange={(event) => setExpiry(Number(event.target.value))}
          >
            {Array.from({ length: limits.maxExpiryDays }, (_, index) => index + 1).map((days) => (
              <option key={days} value={days}>
                {plural(days, 'day')}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className={styles.field}>
        <label htmlFor={messageId} className={styles.label}>
          Message
        </label>
        <textarea
          id={messageId}
          className={styles.textarea}
          value={message}
          maxLength={5_000}
          disabled={busy || resuming !== null}
          onChange={(event) => setMessage(event.target.value)}
        />
      </div>

      {formError ? (
        <p className={styles.alert} role="alert">
          {formError}
        </p>
      ) : null}
      {problem ? (
        <div className={styles.alert} role="alert">
          <p>
            <strong>The transfer was not sent.</strong> {problem.message}
          </p>
          {problem.details.length ? (
            <ul className={styles.alertList}>
              {problem.details.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <div className={styles.actions}>
        <Button type="submit" disabled={busy || overLimit} aria-busy={busy || undefined}>
          {busy ? 'Sending…' : 'Send'}
        </Button>
        {sending ? (
          <Button variant="secondary" onClick={() => sending.controller.abort(new SendCancelled('Cancelled'))}>
            Cancel
          </Button>
        ) : null}
        {!busy && files.length ? (
          <span className={styles.hint}>
            {plural(files.length, 'file')}, {formatBytes(totalBytes)} · {plural(recipients.length, 'recipient')}
          </span>
        ) : null}
      </div>
    </form>
  );
}
