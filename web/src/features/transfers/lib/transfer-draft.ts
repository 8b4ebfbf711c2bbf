import { MAX_FILES_PER_TRANSFER, type PlanLimits } from '@shared/transfers/plans';
import { refusedTransferFile } from '@shared/transfers/file-rules';
import { type FinalizeAnswer, MAX_DOWNLOAD_LIMIT, type TransferDelivery } from '@shared/schemas/transfers';
import type { FileView, TransferSummary } from '../api/transfer-keys';
import { looksLikeEmail } from './format';
import type { SendProgressStore } from './send-progress';
import { type PickedFile, pickedKey } from './send-transfer';

/** Downloads allowed: a count, none (null), or a count the server would refuse, which stops Send. */
export type DownloadLimitChoice = number | null | 'invalid';

/** A draft the sender started earlier whose upload did not finish. */
export interface ResumableDraft {
  readonly transfer: TransferSummary;
  /** Every file of the draft, pending and ready. */
  readonly files: readonly FileView[];
  readonly recipients: readonly string[];
}

/** A send under way: its progress, the way to stop it, and the files it sends. */
export interface Sending {
  readonly store: SendProgressStore;
  readonly controller: AbortController;
  readonly files: readonly PickedFile[];
}

/** Everything the transfer form holds, from the first file picked to the Sent screen. */
export interface TransferDraft {
  readonly files: readonly PickedFile[];
  /** Why files the sender added were left out (a program, one too many). */
  readonly refusals: readonly string[];
  readonly recipients: readonly string[];
  /** What is typed in the recipients box, not added yet. */
  readonly recipientInput: string;
  readonly recipientError: string | null;
  readonly title: string;
  readonly message: string;
  /** Days, as chosen; the plan's maximum caps it (draftTotals). */
  readonly expiry: number;
  /** 'email' to the recipients, or 'link': a link to share, recipients optional. */
  readonly delivery: TransferDelivery;
  /** Downloads allowed in all; null for no limit. */
  readonly downloadLimit: DownloadLimitChoice;
  /** What Send found missing (no file, no recipient). */
  readonly formError: string | null;
  /** Why the last send failed. */
  readonly sendError: unknown;
  readonly sending: Sending | null;
  /** The sent transfer; a link transfer's answer carries its link, shown this once. */
  readonly sent: FinalizeAnswer | null;
  readonly resuming: ResumableDraft | null;
  /** The sender chose to start a new transfer rather than resume the unfinished one. */
  readonly offerDismissed: boolean;
}

export type TransferDraftAction =
  | { type: 'filesAdded'; files: readonly File[] }
  | { type: 'fileRemoved'; key: string }
  | { type: 'recipientsAdded'; emails: readonly string[]; maxRecipients: number }
  | { type: 'recipientRemoved'; email: string }
  | { type: 'recipientInputChanged'; value: string }
  | { type: 'titleChanged'; title: string }
  | { type: 'messageChanged'; message: string }
  | { type: 'expiryChanged'; days: number }
  | { type: 'deliveryChanged'; delivery: TransferDelivery }
  | { type: 'downloadLimitChanged'; downloadLimit: DownloadLimitChoice }
  | { type: 'offerDismissed' }
  | { type: 'resumeStarted'; draft: ResumableDraft }
  | { type: 'sendRefused'; problem: string }
  | { type: 'sendStarted'; sending: Sending }
  | { type: 'sendSucceeded'; transfer: FinalizeAnswer }
  | { type: 'sendFailed'; error: unknown }
  /** Sent: a new, empty draft (the unfinished one is no longer offered). */
  | { type: 'reset'; expiry: number };

/** An empty draft that expires after the plan's default days. */
export function emptyDraft(expiry: number): TransferDraft {
  return {
    files: [],
    refusals: [],
    recipients: [],
    recipientInput: '',
    recipientError: null,
    title: '',
    message: '',
    expiry,
    delivery: 'email',
    downloadLimit: null,
    formError: null,
    sendError: null,
    sending: null,
    sent: null,
    resuming: null,
    offerDismissed: false,
  };
}

/** The files added after those picked already, each once, and why any was left out. */
export function addPickedFiles(
  current: readonly PickedFile[],
  added: readonly File[],
): { files: PickedFile[]; refusals: string[] } {
  const files = [...current];
  const refusals: string[] = [];
  const keys = new Set(current.map(({ key }) => key));
  for (const file of added) {
    const refused = refusedTransferFile(file);
    if (refused) {
      refusals.push(refused);
      continue;
    }
    const key = pickedKey(file);
    if (keys.has(key)) continue;
    if (files.length >= MAX_FILES_PER_TRANSFER) {
      refusals.push(`A transfer holds at most ${MAX_FILES_PER_TRANSFER} files: ${file.name} was not added.`);
      continue;
    }
    keys.add(key);
    files.push({ key, file });
  }
  return { files, refusals };
}

/**
 * Addresses added to the recipients: the new ones (each once, whatever its case) up to the plan's
 * limit, what is left in the box (the addresses that are not email addresses), and what the
 * field says about it.
 */
export function acceptRecipients(
  current: readonly string[],
  emails: readonly string[],
  maxRecipients: number,
): { accepted: string[]; input: string; error: string | null } {
  const invalid = emails.filter((email) => !looksLikeEmail(email));
  const known = new Set(current.map((email) => email.toLowerCase()));
  const fresh = emails.filter(looksLikeEmail).filter((email) => {
    const key = email.toLowerCase();
    if (known.has(key)) return false;
    known.add(key);
    return true;
  });
  const accepted = fresh.slice(0, Math.max(0, maxRecipients - current.length));
  let error: string | null = null;
  if (invalid.length) error = `${invalid.map((email) => `“${email}”`).join(', ')} is not an email address.`;
  else if (fresh.length > accepted.length) error = `Your plan sends to at most ${maxRecipients} recipients.`;
  return { accepted, input: invalid.join(', '), error };
}

const sameFile = (server: FileView, file: File) =>
  server.name === file.name && server.size === file.size && server.lastModified === file.lastModified;

/**
 * What the draft adds up to under the sender's plan: the bytes the resumed draft already holds,
 * the transfer's total (a ready file of the resumed draft picked again counts once), whether it
 * is over the plan's limit, the expiry the plan allows, and the resumed draft's files still to be
 * picked again and those already uploaded.
 */
export function draftTotals(draft: TransferDraft, limits: PlanLimits) {
  const { files, resuming } = draft;
  const keptReady = resuming ? resuming.files.filter((server) => server.status === 'ready') : [];
  const keptBytes = keptReady.reduce((sum, file) => sum + file.size, 0);
  const pickedBytes = files.reduce((sum, { file }) => sum + file.size, 0);
  const repickedBytes = files
    .filter(({ file }) => keptReady.some((server) => sameFile(server, file)))
    .reduce((sum, { file }) => sum + file.size, 0);
  const totalBytes = pickedBytes + keptBytes - repickedBytes;
  const waitingFiles = resuming
    ? resuming.files.filter((server) => server.status === 'pending' && !files.some(({ file }) => sameFile(server, file)))
    : [];
  return {
    keptReady,
    keptBytes,
    totalBytes,
    overLimit: totalBytes > limits.maxTransferBytes,
    expiryDays: Math.min(draft.expiry, limits.maxExpiryDays),
    waitingFiles,
  };
}

/** What Send needs first, in words: a file (picked, or kept by the resumed draft) and, sent by email, a recipient. */
export function missingForSend(draft: TransferDraft, recipients: readonly string[]): string | null {
  const keptFiles = draft.resuming?.files.some((file) => file.status === 'ready') ?? false;
  if (draft.files.length === 0 && !keptFiles) return 'Add at least one file.';
  if (recipients.length === 0 && draft.delivery === 'email') return 'Add at least one recipient.';
  if (draft.downloadLimit === 'invalid')
    return `Choose from 1 to ${MAX_DOWNLOAD_LIMIT} downloads, or turn the download limit off.`;
  return null;
}

export function transferDraftReducer(draft: TransferDraft, action: TransferDraftAction): TransferDraft {
  switch (action.type) {
    case 'filesAdded':
      return { ...draft, ...addPickedFiles(draft.files, action.files), formError: null };
    case 'fileRemoved':
      return { ...draft, files: draft.files.filter((one) => one.key !== action.key) };
    case 'recipientsAdded': {
      const { accepted, input, error } = acceptRecipients(draft.recipients, action.emails, action.maxRecipients);
      return {
        ...draft,
        recipients: accepted.length ? [...draft.recipients, ...accepted] : draft.recipients,
        recipientInput: input,
        recipientError: error,
        formError: null,
      };
    }
    case 'recipientRemoved':
      return { ...draft, recipients: draft.recipients.filter((one) => one !== action.email) };
    case 'recipientInputChanged':
      return { ...draft, recipientInput: action.value, recipientError: null };
    case 'titleChanged':
      return { ...draft, title: action.title };
    case 'messageChanged':
      return { ...draft, message: action.message };
    case 'expiryChanged':
      return { ...draft, expiry: action.days };
    case 'deliveryChanged':
      return { ...draft, delivery: action.delivery, formError: null };
    case 'downloadLimitChanged':
      return { ...draft, downloadLimit: action.downloadLimit };
    case 'offerDismissed':
      return { ...draft, offerDismissed: true };
    case 'resumeStarted':
      return {
        ...draft,
        resuming: action.draft,
        title: action.draft.transfer.title,
        message: action.draft.transfer.message,
        delivery: action.draft.transfer.delivery,
        downloadLimit: action.draft.transfer.downloadLimit,
        recipients: [...action.draft.recipients],
      };
    case 'sendRefused':
      return { ...draft, formError: action.problem };
    case 'sendStarted':
      return { ...draft, formError: null, sendError: null, sending: action.sending };
    case 'sendSucceeded':
      return { ...draft, sent: action.transfer, sending: null };
    case 'sendFailed':
      return { ...draft, sendError: action.error, sending: null };
    case 'reset':
      return { ...emptyDraft(action.expiry), offerDismissed: true };
  }
}
