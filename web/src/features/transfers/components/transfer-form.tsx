import { useId } from 'react';
import type { PlanLimits } from '@shared/transfers/plans';
import { MAX_TRANSFER_PASSWORD_LENGTH, MIN_TRANSFER_PASSWORD_LENGTH } from '@shared/transfers/passwords';
import { Button } from '../../../components/button';
import { ApiError } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format-bytes';
import { formatDate, plural, transferName } from '../lib/format';
import type { UploadFn } from '../lib/send-transfer';
import type { ResumableDraft } from '../lib/transfer-draft';
import { uploadFile } from '../../../lib/uploads/upload-client';
import { type UploadTransport, xhrTransport } from '../../../lib/uploads/upload-transport';
import { DeliveryChoice } from './delivery-choice';
import { DownloadLimitField } from './download-limit-field';
import { FilePicker } from './file-picker';
import { OverLimit, PasswordUpsell, ProUpsell } from './pro-upsell';
import { RecipientsField } from './recipients-field';
import { SendProgressView } from './send-progress-view';
import { SentScreen } from './sent-screen';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './transfers.module.css';
import { useTransferDraft } from './use-transfer-draft';

export interface TransferFormProps {
  userId: string;
  limits: PlanLimits;
  resumable?: ResumableDraft | null;
  /** The upload client (tests pass a stand-in). */
  upload?: UploadFn;
  transport?: UploadTransport;
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

/**
 * The transfer form: files (dropped or picked), recipients, title, message and expiry, then Send.
 * What it holds and what Send does are useTransferDraft's; the form shows them: the unfinished
 * draft it offers to resume, the upload's progress, and a failure beside the form with everything
 * kept, after which Send carries on from where it stopped. Once sent, where the package is.
 */
export function TransferForm({
  userId,
  limits,
  resumable = null,
  upload = uploadFile,
  transport = xhrTransport,
}: TransferFormProps) {
  const titleId = useId();
  const messageId = useId();
  const expiryId = useId();
  const passwordId = useId();
  const form = useTransferDraft({ limits, resumable, upload, transport });
  const { draft, busy, offer, totalBytes, overLimit } = form;
  const { files, recipients, resuming, sending } = draft;

  if (draft.sent) return <SentScreen transfer={draft.sent} onSendAnother={form.reset} />;

  const problem = draft.sendError ? describeError(draft.sendError) : null;

  return (
    <form
      className={styles.card}
      onSubmit={(event) => {
        event.preventDefault();
        void form.send();
      }}
      noValidate
      aria-label="New transfer"
    >
      {offer ? (
        <section className={styles.notice} aria-label="Unfinished transfer">
          <p>
            <strong>You started “{transferName(offer.transfer)}”</strong> and its upload did not finish (
            {plural(offer.files.filter((file) => file.status === 'pending').length, 'file')} waiting). Pick the same files again
            and only what is missing is sent.
          </p>
          <div className={pageStyles.actions}>
            <Button size="small" onClick={() => form.startResume(offer)}>
              Resume the transfer you started
            </Button>
            <Button size="small" variant="ghost" onClick={form.dismissOffer}>
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
          {form.waitingFiles.length ? (
            <>
              <p>Pick these files again to finish their upload:</p>
              <ul className={styles.alertList} aria-label="Files to pick again">
                {form.waitingFiles.map((file) => (
                  <li key={file.id}>
                    {file.name} ({formatBytes(file.size)})
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {form.keptReady.length ? (
            <p>
              Already uploaded: {form.keptReady.map((file) => file.name).join(', ')} ({formatBytes(form.keptBytes)}).
            </p>
          ) : null}
        </section>
      ) : null}

      {sending ? (
        <SendProgressView store={sending.store} files={sending.files} />
      ) : (
        <FilePicker files={files} onAdd={form.addFiles} onRemove={form.removeFile} />
      )}
      {draft.refusals.length ? (
        <div className={pageStyles.alert} role="alert">
          <ul className={styles.alertList}>
            {draft.refusals.map((text) => (
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

      <DeliveryChoice value={draft.delivery} onChange={form.setDelivery} disabled={busy || resuming !== null} />
      {draft.delivery === 'link' ? (
        <p className={styles.hint}>Recipients are optional: anyone you add is emailed the files as well.</p>
      ) : null}
      <RecipientsField
        userId={userId}
        recipients={recipients}
        value={draft.recipientInput}
        onValueChange={form.typeRecipient}
        onAdd={form.addRecipients}
        onRemove={form.removeRecipient}
        error={draft.recipientError}
        disabled={busy}
        full={recipients.length >= limits.maxRecipients}
      />

      <div className={styles.fieldRow}>
        <div className={fieldStyles.field}>
          <label htmlFor={titleId} className={fieldStyles.label}>
            Title
          </label>
          <input
            id={titleId}
            className={styles.input}
            value={draft.title}
            maxLength={200}
            disabled={busy || resuming !== null}
            onChange={(event) => form.setTitle(event.target.value)}
          />
        </div>
        <div className={fieldStyles.field}>
          <label htmlFor={expiryId} className={fieldStyles.label}>
            Expires after
          </label>
          <select
            id={expiryId}
            className={styles.select}
            value={form.expiryDays}
            disabled={busy || resuming !== null}
            onChange={(event) => form.setExpiry(Number(event.target.value))}
          >
            {Array.from({ length: limits.maxExpiryDays }, (_, index) => index + 1).map((days) => (
              <option key={days} value={days}>
                {plural(days, 'day')}
              </option>
            ))}
          </select>
        </div>
      </div>
      <DownloadLimitField value={draft.downloadLimit} onChange={form.setDownloadLimit} disabled={busy || resuming !== null} />
      <div className={fieldStyles.field}>
        <label htmlFor={messageId} className={fieldStyles.label}>
          Message
        </label>
        <textarea
          id={messageId}
          className={styles.textarea}
          value={draft.message}
          maxLength={5_000}
          disabled={busy || resuming !== null}
          onChange={(event) => form.setMessage(event.target.value)}
        />
      </div>

      {form.resumedProtected ? (
        <fieldset className={fieldStyles.field} aria-describedby={`${passwordId}-kept`}>
          <legend className={fieldStyles.label}>Password</legend>
          <p id={`${passwordId}-kept`} className={fieldStyles.hint}>
            {form.removePassword
              ? 'The password is removed when you send: anyone the transfer reaches opens it without one.'
              : 'This transfer is protected by a password. It keeps it unless you type a new one or remove it.'}
          </p>
          {limits.planId === 'pro' ? (
            <>
              <label htmlFor={passwordId} className={fieldStyles.label}>
                New password (optional)
              </label>
              <input
                id={passwordId}
                type="password"
                className={styles.input}
                value={form.password}
                minLength={MIN_TRANSFER_PASSWORD_LENGTH}
                maxLength={MAX_TRANSFER_PASSWORD_LENGTH}
                autoComplete="new-password"
                disabled={busy || form.removePassword}
                onChange={(event) => form.setPassword(event.target.value)}
              />
            </>
          ) : null}
          <label className={styles.hint}>
            <input
              type="checkbox"
              checked={form.removePassword}
              disabled={busy}
              onChange={(event) => form.setRemovePassword(event.target.checked)}
            />{' '}
            Remove the password
          </label>
        </fieldset>
      ) : limits.planId === 'pro' ? (
        <div className={fieldStyles.field}>
          <label htmlFor={passwordId} className={fieldStyles.label}>
            Password (optional)
          </label>
          <input
            id={passwordId}
            type="password"
            className={styles.input}
            value={form.password}
            minLength={MIN_TRANSFER_PASSWORD_LENGTH}
            maxLength={MAX_TRANSFER_PASSWORD_LENGTH}
            autoComplete="new-password"
            aria-describedby={`${passwordId}-hint`}
            disabled={busy}
            onChange={(event) => form.setPassword(event.target.value)}
          />
          <p id={`${passwordId}-hint`} className={fieldStyles.hint}>
            Recipients enter it before they see the files. Tell it to them yourself: it is not in the email.
          </p>
        </div>
      ) : (
        <PasswordUpsell />
      )}

      {draft.formError ? (
        <p className={pageStyles.alert} role="alert">
          {draft.formError}
        </p>
      ) : null}
      {problem ? (
        <div className={pageStyles.alert} role="alert">
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

      <div className={pageStyles.actions}>
        <Button type="submit" disabled={busy || overLimit} aria-busy={busy || undefined}>
          {busy ? 'Sending…' : 'Send'}
        </Button>
        {sending ? (
          <Button variant="secondary" onClick={form.cancel}>
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
