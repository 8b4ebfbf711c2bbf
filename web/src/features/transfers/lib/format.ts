import { formatBytes } from '../../../lib/format-bytes';

/** "3.4 MB/s". */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Time left in words a person reads at a glance: "a few seconds", "40 seconds", "3 minutes", "1 h 20 min". */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 10) return 'a few seconds';
  if (seconds < 60) return `${Math.ceil(seconds / 10) * 10} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** "3 March 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
}

/** "3 March 2026, 14:05" in the reader's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** "1 file", "3 files". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** What a transfer is called in lists: its title, or how many files it holds. */
export function transferName(transfer: { title: string; fileCount: number; passwordProtected?: true | undefined }): string {
  // A recipient's list is told nothing of a protected transfer's contents until it is opened.
  if (!transfer.title.trim() && transfer.passwordProtected && transfer.fileCount === 0) return 'Password-protected transfer';
  return transfer.title.trim() || plural(transfer.fileCount, 'file');
}

/** Whose list a transfer is shown in: the sender's own, or a recipient's received ones. */
export type TransferViewer = 'sender' | 'recipient';

/**
 * The status a list shows, as its viewer sees it: draft, sent or expired to the sender; received
 * (or expired) to a recipient, for whom "Sent" would read as something they did.
 */
export function transferStatus(
  transfer: { status: 'draft' | 'sent'; expired: boolean },
  viewer: TransferViewer = 'sender',
): 'Draft' | 'Sent' | 'Received' | 'Expired' {
  if (transfer.expired) return 'Expired';
  if (viewer === 'recipient') return 'Received';
  return transfer.status === 'draft' ? 'Draft' : 'Sent';
}

/** An upload through one of the owner's file requests: still uploading, or received. */
export function requestUploadStatus(transfer: {
  status: 'draft' | 'sent';
  expired: boolean;
}): 'Uploading' | 'Received' | 'Expired' {
  if (transfer.expired) return 'Expired';
  return transfer.status === 'draft' ? 'Uploading' : 'Received';
}

/** The address recipients open: the package page, on this site. */
export function packageUrl(transferId: string, origin: string = window.location.origin): string {
  return `${origin}/transfer/${encodeURIComponent(transferId)}/package`;
}

/** A simple check before the server's own: something@something.tld, no spaces. */
export function looksLikeEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
