import { useEffect } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { track } from '../../../lib/analytics';
import { formatBytes } from '../../../lib/format-bytes';
import styles from './transfers.module.css';

/** Where the Pro notice leads; the payments work builds the page (SPEC: the transfer app's "upgrades" screen). */
export const PRO_UPGRADE_PATH = '/upgrades';

/**
 * Said when the picked files go over the free plan's limit: how much they come to, and that Pro
 * sends far more. Reports that it was shown (once per appearance) and when its link is followed.
 */
export function ProUpsell({ totalBytes, limitBytes }: { totalBytes: number; limitBytes: number }) {
  // Once per appearance, not once per file added while it shows.
  useEffect(() => track('Pro Upsell Shown', { reason: 'size' }), []);
  return (
    <div className={styles.notice} role="status">
      <p>
        <strong>These files come to {formatBytes(totalBytes)}.</strong> Free transfers carry up to {formatBytes(limitBytes)}:
        remove some files, or send them all with Pro.
      </p>
      <Link to={PRO_UPGRADE_PATH} className={styles.noticeLink} onClick={() => track('Pro Upsell Clicked', { reason: 'size' })}>
        Pro sends up to {formatBytes(PLAN_LIMITS.pro.maxTransferBytes)}
      </Link>
    </div>
  );
}

/** Where the password field is for Pro senders: what Pro adds, for a Free sender. */
export function PasswordUpsell() {
  return (
    <div className={styles.notice} role="note" aria-label="Password protection">
      <p>
        <strong>Protect a transfer with a password</strong> with Pro: recipients enter it before they see the files, so a
        forwarded link opens nothing.
      </p>
      <Link to={PRO_UPGRADE_PATH} className={styles.noticeLink} onClick={() => track('Pro Upsell Clicked', { reason: 'other' })}>
        See Pro
      </Link>
    </div>
  );
}

/** Over the limit of a plan with nothing above it: only removing files helps. */
export function OverLimit({ totalBytes, limitBytes }: { totalBytes: number; limitBytes: number }) {
  return (
    <div className={styles.notice} role="status">
      <p>
        <strong>These files come to {formatBytes(totalBytes)}.</strong> A transfer carries up to {formatBytes(limitBytes)}: remove
        some files, or send them in two transfers.
      </p>
    </div>
  );
}
