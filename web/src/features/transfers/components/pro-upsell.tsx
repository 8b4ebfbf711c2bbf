import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { PLAN_LIMITS } from '../../../../../shared/transfers/plans';
import { formatBytes } from '../../../lib/format-bytes';
import { TRANSFER_EVENTS, trackTransferEvent } from '../lib/transfer-events';
import styles from './transfers.module.css';

/** Where the Pro notice leads; the payments work builds the page (SPEC: the transfer app's "upgrades" screen). */
export const PRO_UPGRADE_PATH = '/upgrades';

/**
 * Said when the picked files go over the free plan's limit: how much they come to, and that Pro
 * sends far more. Reports that it was shown (once per appearance) and when its link is followed.
 */
export function ProUpsell({ totalBytes, limitBytes }: { totalBytes: number; limitBytes: number }) {
  // Once per appearance (with what it first said), not once per file added while it shows.
  const shown = useRef({ totalBytes, limitBytes });
  useEffect(() => trackTransferEvent(TRANSFER_EVENTS.proUpsellShown, { ...shown.current }), []);
  return (
    <div className={styles.notice} role="status">
      <p>
        <strong>These files come to {formatBytes(totalBytes)}.</strong> Free transfers carry up to {formatBytes(limitBytes)}:
        remove some files, or send them all with Pro.
      </p>
      <Link
        to={PRO_UPGRADE_PATH}
        className={styles.noticeLink}
        onClick={() => trackTransferEvent(TRANSFER_EVENTS.proUpsellClicked, { totalBytes, limitBytes })}
      >
        Pro sends up to {formatBytes(PLAN_LIMITS.pro.maxTransferBytes)}
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
