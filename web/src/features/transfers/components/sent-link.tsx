import type { TransferSummary } from '../api/transfer-keys';
import { formatDate, plural } from '../lib/format';
import { CopyLink } from './copy-link';
import styles from './transfers.module.css';

/**
 * A link transfer's link, on the Sent screen: the only time it is shown (the server keeps only a
 * hash of its key), so the screen says to copy it now.
 */
export function SentLink({ transfer, link }: { transfer: TransferSummary; link: string }) {
  return (
    <>
      <p className={styles.lede}>
        {plural(transfer.fileCount, 'file')} ready to share. Anyone with this link can download them until{' '}
        {formatDate(transfer.expiresAt)}
        {transfer.downloadLimit !== null ? `, ${plural(transfer.downloadLimit, 'download')} in all` : ''}
        {transfer.recipientCount ? `; ${plural(transfer.recipientCount, 'recipient')} were emailed too` : ''}.
      </p>
      <CopyLink label="Link to the files" url={link} />
      <p className={styles.hint}>Copy it now: it is shown only this once. Deleting the transfer turns the link off.</p>
    </>
  );
}
