import { type ReactNode, useId } from 'react';
import { planAllowsPasswords } from '@shared/transfers/passwords';
import { formatBytes } from '../../../lib/format-bytes';
import type { PlanLimitsView } from '../api/subscription-keys';
import badgeStyles from '../../../components/badge.module.css';
import styles from './subscriptions.module.css';

/** What a plan allows, in the same order for every plan so two cards side by side compare line by line. */
export function PlanLimitsList({ limits }: { limits: PlanLimitsView }) {
  return (
    <dl className={styles.limits}>
      <dt>Largest transfer</dt>
      <dd>{formatBytes(limits.maxTransferBytes)}</dd>
      <dt>Transfers kept for up to</dt>
      <dd>{limits.maxExpiryDays} days</dd>
      <dt>Recipients per transfer</dt>
      <dd>{limits.maxRecipients.toLocaleString('en-US')}</dd>
      <dt>Password-protected transfers</dt>
      <dd>{planAllowsPasswords(limits.planId) ? 'Yes' : 'No'}</dd>
    </dl>
  );
}

/** One plan of the comparison: its name, its price, its limits and what to do about it. */
export function PlanCard({
  name,
  badge,
  price,
  priceNote,
  limits,
  highlight = false,
  children,
}: {
  name: string;
  badge?: string | undefined;
  price: string;
  priceNote: ReactNode;
  limits: PlanLimitsView;
  highlight?: boolean;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className={styles.plan} aria-labelledby={titleId} data-highlight={highlight || undefined}>
      <div className={styles.planHeader}>
        <h2 id={titleId} className={styles.planName}>
          {name}
        </h2>
        {badge ? <span className={badgeStyles.badge}>{badge}</span> : null}
      </div>
      <p className={styles.price}>
        <span className={styles.priceAmount}>{price}</span>
        <span className={styles.priceNote}>{priceNote}</span>
      </p>
      <PlanLimitsList limits={limits} />
      {children ? <div className={styles.planAction}>{children}</div> : null}
    </section>
  );
}
