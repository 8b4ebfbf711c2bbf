import { Button } from '../../../components/button';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import type { TransferSummary } from '../api/transfer-keys';
import { formatDate, plural } from '../lib/format';
import packageStyles from './package.module.css';

/** A visitor who came by a link transfer's link, not signed in: they download freely, and log in to vote. */
export function LinkVisitorNotice({ onLogIn }: { onLogIn: () => void }) {
  return (
    <section role="status" aria-label="How you opened this transfer" className={packageStyles.message}>
      <p>Anyone with this link can download these files, no account needed. Log in to like or dislike them.</p>
      <StateLinks>
        <Button onClick={onLogIn}>Log in</Button>
      </StateLinks>
    </section>
  );
}

/** Whether a visitor may still download: the sender's own downloads are never counted nor refused. */
export const downloadLimitReached = (transfer: TransferSummary, isOwner: boolean) =>
  !isOwner && transfer.downloadLimit !== null && transfer.downloadCount >= transfer.downloadLimit;

/**
 * How many downloads a transfer with a download limit has left, for everyone who opens it; its
 * id names it as the reason the download buttons are off once none are left.
 */
export function DownloadsLeft({ transfer, isOwner, id }: { transfer: TransferSummary; isOwner: boolean; id?: string }) {
  if (transfer.downloadLimit === null) return null;
  const left = Math.max(0, transfer.downloadLimit - transfer.downloadCount);
  let text = `${left} of ${plural(transfer.downloadLimit, 'download')} left.`;
  if (left === 0)
    text = isOwner
      ? 'This transfer has reached its download limit: nobody else can download its files any more.'
      : 'This transfer has reached its download limit: its files cannot be downloaded any more.';
  return (
    <p id={id} className={packageStyles.from} role="status">
      {text}
    </p>
  );
}

/** Why a link did not open its transfer: a key that matches nothing looks like no transfer at all. */
export function LinkRefused({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 410) {
    const expiredAt = typeof error.body?.expiredAt === 'string' ? error.body.expiredAt : null;
    return (
      <EmptyState title="This transfer has expired" icon="⌛" level={1}>
        <p>{expiredAt ? `It expired on ${formatDate(expiredAt)} and its files were deleted.` : error.message}</p>
        <p>Ask the sender to send the files again.</p>
      </EmptyState>
    );
  }
  if (error instanceof ApiError && error.status < 500) {
    return (
      <NotFoundState title="This link does not open a transfer">
        <p>Check that the whole link was copied, or ask the sender for it again: the transfer may have been deleted.</p>
      </NotFoundState>
    );
  }
  return <ErrorState title="The transfer could not be opened" error={error} onRetry={onRetry} />;
}
