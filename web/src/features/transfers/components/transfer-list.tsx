import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { MoreButton, type PagedQuery } from '../../../components/more-button';
import { formatBytes } from '../../../lib/format-bytes';
import type { TransferSummary } from '../api/transfer-keys';
import { formatDate, requestUploadStatus, type TransferViewer, transferName, transferStatus } from '../lib/format';
import styles from './transfers.module.css';

/**
 * A list of transfers, one row each: name, date, size and status, linking to where `linkTo` says.
 * A recipient's list (`viewer="recipient"`) names each sender and badges the rows "Received".
 */
export function TransferList({
  label,
  transfers,
  linkTo,
  viewer = 'sender',
  query,
}: {
  label: string;
  transfers: readonly TransferSummary[];
  linkTo: (transfer: TransferSummary) => string;
  viewer?: TransferViewer;
  query: PagedQuery;
}) {
  return (
    <>
      <ul className={styles.list} aria-label={label}>
        {transfers.map((transfer) => {
          const received = transfer.receivedThrough;
          const status = received ? requestUploadStatus(transfer) : transferStatus(transfer, viewer);
          const date = transfer.finalizedAt ?? transfer.createdAt;
          const sender = transfer.owner.name || `@${transfer.owner.username}`;
          return (
            <li key={transfer.id} className={styles.item}>
              <Link to={linkTo(transfer)} className={styles.rowLink}>
                <span className={styles.itemName}>{transferName(transfer)}</span>
                <span className={styles.itemMeta}>
                  {viewer === 'recipient' ? `From ${sender} · ` : ''}
                  {received ? `From ${received.uploaderName} through your file request · ` : ''}
                  {formatDate(date)} ·{' '}
                  {viewer === 'recipient' && transfer.passwordProtected ? 'Password protected' : formatBytes(transfer.totalBytes)}
                </span>
                {received?.uploaderNote ? <span className={styles.itemMeta}>“{received.uploaderNote}”</span> : null}
              </Link>
              <span className={styles.status} data-status={status}>
                {status}
              </span>
            </li>
          );
        })}
      </ul>
      <MoreButton query={query} className={styles.more} />
    </>
  );
}
