import { useId } from 'react';
import type { OrderDownloadView } from '@shared/schemas/digital-products';
import { Button } from '../../../components/button';
import { formatBytes } from '../../../lib/format-bytes';
import { useDownloadOrderFile } from '../api/download-order-file';
import type { OrderView } from '../api/store-keys';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

const openLink = (url: string) => window.location.assign(url);

/** Why a file cannot be downloaded now, or how many downloads are left. */
function standing(file: OrderDownloadView): string {
  switch (file.access) {
    case 'refunded':
      return 'Refunded: no longer available';
    case 'subscription-ended':
      return 'Your subscription has ended: subscribe again to download';
    case 'used-up':
      return `All ${file.downloadLimit} downloads used`;
    default:
      return file.downloadsLeft === 1 ? '1 download left' : `${file.downloadsLeft} downloads left`;
  }
}

/** The files an order's grades deliver: each with its downloads left and a Download button while it may be downloaded. */
export function OrderDownloads({
  userId,
  order,
  open = openLink,
}: {
  userId: string;
  order: OrderView;
  open?: (url: string) => void;
}) {
  const titleId = useId();
  const download = useDownloadOrderFile(userId, open);
  if (order.downloads.length === 0) return null;
  return (
    <section aria-labelledby={titleId}>
      <h4 id={titleId} className={styles.itemTitle}>
        Downloads
      </h4>
      <ul className={styles.orderLines} aria-label="Your files">
        {order.downloads.map((file) => (
          <li key={file.fileId} className={styles.orderLine}>
            <span>
              {file.name} <span className={pageStyles.muted}>{formatBytes(file.size)}</span>
              <br />
              <span className={pageStyles.muted}>{standing(file)}</span>
            </span>
            <Button
              variant="secondary"
              aria-label={`Download ${file.name}`}
              disabled={file.access !== 'available' || download.isPending}
              onClick={() => download.mutate({ invoiceId: order.invoiceId, fileId: file.fileId })}
            >
              Download
            </Button>
          </li>
        ))}
      </ul>
      {download.isError ? (
        <p role="alert" className={pageStyles.muted}>
          {download.error.message}
        </p>
      ) : null}
    </section>
  );
}
