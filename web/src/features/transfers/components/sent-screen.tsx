import { useEffect, useRef } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { Button, buttonClassName } from '../../../components/button';
import type { FinalizeAnswer } from '@shared/schemas/transfers';
import { formatDate, packageUrl, plural } from '../lib/format';
import { CopyLink } from './copy-link';
import { SentLink } from './sent-link';
import pageStyles from '../../../components/page.module.css';
import styles from './transfers.module.css';

/** After the send: where the package is, and ways on. Takes focus so the change is announced. */
export function SentScreen({ transfer, onSendAnother }: { transfer: FinalizeAnswer; onSendAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className={`${styles.card} ${styles.sent}`} aria-labelledby="transfer-sent-heading">
      <span className={styles.sentIcon} aria-hidden="true">
        ✓
      </span>
      <h2 id="transfer-sent-heading" ref={heading} tabIndex={-1} className={styles.title}>
        Sent
      </h2>
      {transfer.link ? (
        <SentLink transfer={transfer} link={transfer.link} />
      ) : (
        <>
          <p className={styles.lede}>
            {plural(transfer.fileCount, 'file')} on the way to {plural(transfer.recipientCount, 'recipient')}. The link works
            until {formatDate(transfer.expiresAt)}.
          </p>
          <CopyLink label="Package link" url={packageUrl(transfer.id)} />
        </>
      )}
      <div className={pageStyles.actions}>
        <Link to={`/transfers/${encodeURIComponent(transfer.id)}`} className={buttonClassName({ variant: 'secondary' })}>
          See who downloaded it
        </Link>
        <Button onClick={onSendAnother}>Send another transfer</Button>
      </div>
    </section>
  );
}
