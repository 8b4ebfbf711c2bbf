import { Link } from 'react-router';
import { MoreButton, type PagedQuery } from '../../../components/more-button';
import { formatBytes } from '../../../lib/format-bytes';
import type { TransferSummary } from '../api/transfer-keys';
import { formatDate, transferName, transferStatus } from '../lib/format';
import styles from './transfers.module.css';

/** A list of transfers, one row each: name, date, size and status, linking to where `linkTo` says. */
export function TransferList({
  label,
  transfers,
  linkTo,
  showSender = false,
  query,
}: {
  label: string;
  transfers: readonly TransferSummary[];
  linkTo: (transfer: TransferSummary) => string;
  showSender?: boolean;
  query: PagedQuery;
}) {
  return (
    <>
      <ul className={styles.list} aria-label={label}>
        {transfers.map((transfer) => {
          const status = transferStatus(transfer);
          const date = transfer.finalizedAt ?? transfer.createdAt;
          const sender = transfer.owner.name || `@${transfer.owner.username}`;
          return (
            <li key={transfer.id} className={styles.item}>
              <Link to={linkTo(transfer)} className={styles.rowLink}>
                <span className={styles.itemName}>{transferName(transfer)}</span>
                <span className={styles.itemMeta}>
                  {showSender ? `From ${sender} · ` : ''}
                  {formatDate(date)} · {formatBytes(transfer.totalBytes)}
                </span>
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
