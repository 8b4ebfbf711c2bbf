import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState } from 'react';
import type { TransferDelivery } from '@shared/schemas/transfers';
import type { PlanLimits } from '@shared/transfers/plans';
import { refusedTransferFile } from '@shared/transfers/file-rules';
import { track } from '../../../lib/analytics';
import { abortUpload } from '../../../lib/uploads/api/abort-upload';
import { addRecipient } from '../api/add-recipient';
import { createFiles } from '../api/create-files';
import { createTransfer } from '../api/create-transfer';
import { deleteFile } from '../api/delete-file';
import { finalizeTransfer } from '../api/finalize-transfer';
import { recordFinalizeTiming } from '../api/record-finalize-timing';
import { setTransferDelivery } from '../api/set-transfer-delivery';
import { setTransferPassword } from '../api/set-transfer-password';
import { transferKeys } from '../api/transfer-keys';
import { looksLikeEmail } from '../lib/format';
import { SendProgressStore } from '../lib/send-progress';
import { KEEP_PASSWORD, type SendDeps, sendTransfer, SendSession, type UploadFn } from '../lib/send-transfer';
import {
  acceptRecipients,
  type DownloadLimitChoice,
  draftTotals,
  emptyDraft,
  missingForSend,
  type ResumableDraft,
  transferDraftReducer,
} from '../lib/transfer-draft';
import { uploadApi } from '../../../lib/uploads/upload-api';
import type { UploadTransport } from '../../../lib/uploads/upload-transport';
import { type RecipientSource, splitAddresses } from './recipients-field';

export class SendCancelled extends Error {
  override readonly name = 'SendCancelled';
}

/**
 * The transfer form's draft (transferDraftReducer) and what it does: Send creates the draft,
 * adds the recipients, creates the file records, uploads the files (three at a time, each in
 * parallel parts) with their progress, finalizes and reports how long it took. A failure keeps
 * everything, and Send carries on from where it stopped; an unfinished draft from earlier can be
 * resumed. It reports what the sender does to analytics, and asks before the page is left
 * mid-upload.
 */
export function useTransferDraft({
  limits,
  resumable,
  upload,
  transport,
}: {
  limits: PlanLimits;
  resumable: ResumableDraft | null;
  upload: UploadFn;
  transport: UploadTransport;
}) {
  const queryClient = useQueryClient();
  const [draft, dispatch] = useReducer(transferDraftReducer, limits.defaultExpiryDays, emptyDraft);
  /** What this form has done on the server, kept across tries. */
  const session = useRef<SendSession | null>(null);
  const totals = draftTotals(draft, limits);
  const busy = draft.sending !== null;
  /** Kept out of the draft's reducer (and its resumable state): it only ever goes to the server once. */
  const [password, setPassword] = useState('');
  /** A resumed draft's password is kept unless the sender types another or removes it. */
  const [removePassword, setRemovePassword] = useState(false);
  const resumedProtected = draft.resuming?.transfer.passwordProtected === true;

  useEffect(() => track('Transfer Form Opened'), []);

  // Leaving the page mid-upload loses the upload's place on this page: ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const addFiles = (added: File[]) => {
    const fine = added.filter((file) => !refusedTransferFile(file));
    if (fine.length) track('Transfer Files Added', { files: fine.length, bytes: fine.reduce((sum, file) => sum + file.size, 0) });
    dispatch({ type: 'filesAdded', files: added });
  };

  /** Adds what it can and says why not the rest; returns the addresses added. */
  const addRecipients = (emails: string[], source: RecipientSource) => {
    const { accepted } = acceptRecipients(draft.recipients, emails, limits.maxRecipients);
    dispatch({ type: 'recipientsAdded', emails, maxRecipients: limits.maxRecipients });
    if (source === 'contact' && accepted.length) track('Contacts Used', { count: accepted.length });
    return accepted;
  };

  const startResume = (resumed: ResumableDraft) => {
    dispatch({ type: 'resumeStarted', draft: resumed });
    session.current = new SendSession({ transfer: resumed.transfer, files: resumed.files, recipients: resumed.recipients });
  };

  const reset = () => {
    session.current = null;
    setPassword('');
    setRemovePassword(false);
    dispatch({ type: 'reset', expiry: limits.defaultExpiryDays });
  };

  /** What the send does with the password: the one typed (Pro), none, or the resumed draft's as it is. */
  const passwordToSend = () => {
    if (removePassword) return null;
    if (limits.planId === 'pro' && password) return password;
    return resumedProtected ? KEEP_PASSWORD : null;
  };

  const send = async () => {
    if (busy || totals.overLimit) return;
    const startedAt = performance.now();
    // An address still in the box counts, as if Add had been pressed.
    let recipients = draft.recipients;
    const typed = splitAddresses(draft.recipientInput);
    if (typed.length) {
      recipients = [...recipients, ...addRecipients(typed, 'typed')];
      // The field says what is wrong with the address; nothing is sent until it is fixed.
      if (!typed.every(looksLikeEmail)) return;
    }
    const missing = missingForSend(draft, recipients);
    if (missing) {
      dispatch({ type: 'sendRefused', problem: missing });
      return;
    }
    track('Transfer Send Clicked', { files: draft.files.length, recipients: recipients.length });

    const files = [...draft.files];
    const store = new SendProgressStore(files.map(({ key, file }) => ({ key, size: file.size })));
    const controller = new AbortController();
    dispatch({ type: 'sendStarted', sending: { store, controller, files } });
    session.current ??= new SendSession();
    const deps: SendDeps = {
      createTransfer: (body) => createTransfer(body),
      setPassword: (id, password) => setTransferPassword(id, password),
      setDelivery: (id, delivery, downloadLimit) => setTransferDelivery(id, delivery, downloadLimit),
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
          title: draft.title,
          message: draft.message,
          expiresInDays: totals.expiryDays,
          delivery: draft.delivery,
          // missingForSend refused an invalid count above.
          downloadLimit: typeof draft.downloadLimit === 'number' ? draft.downloadLimit : null,
          password: passwordToSend(),
          recipients,
          files,
          startedAt,
          progress: store,
          signal: controller.signal,
        },
        deps,
        session.current,
      );
      dispatch({ type: 'sendSucceeded', transfer });
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
    } catch (error) {
      dispatch({
        type: 'sendFailed',
        error: controller.signal.aborted
          ? new SendCancelled('Sending stopped. Everything is kept: press Send to carry on.')
          : error,
      });
    } finally {
      store.dispose();
    }
  };

  return {
    draft,
    ...totals,
    busy,
    /** The unfinished draft to offer, until the sender resumes it, starts anew or sends. */
    offer: resumable && !draft.resuming && !draft.offerDismissed && !busy ? resumable : null,
    addFiles,
    removeFile: (key: string) => dispatch({ type: 'fileRemoved', key }),
    addRecipients,
    removeRecipient: (email: string) => dispatch({ type: 'recipientRemoved', email }),
    typeRecipient: (value: string) => dispatch({ type: 'recipientInputChanged', value }),
    setTitle: (title: string) => dispatch({ type: 'titleChanged', title }),
    setMessage: (message: string) => dispatch({ type: 'messageChanged', message }),
    setExpiry: (days: number) => dispatch({ type: 'expiryChanged', days }),
    setDelivery: (delivery: TransferDelivery) => dispatch({ type: 'deliveryChanged', delivery }),
    setDownloadLimit: (downloadLimit: DownloadLimitChoice) => dispatch({ type: 'downloadLimitChanged', downloadLimit }),
    password,
    setPassword,
    /** The resumed draft has a password (the page never knew it): kept, replaced by a new one, or removed. */
    resumedProtected,
    removePassword,
    setRemovePassword,
    startResume,
    dismissOffer: () => dispatch({ type: 'offerDismissed' }),
    reset,
    send,
    cancel: () => draft.sending?.controller.abort(new SendCancelled('Cancelled')),
  };
}
