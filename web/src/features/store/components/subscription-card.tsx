import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import type { StoreSubscriptionView } from '../api/store-keys';
import { describeCard, everyCycle, formatDate, formatDay, formatMoney, statusWords, times } from '../lib/format';
import { productPath, shopPath } from '../lib/paths';
import styles from './store.module.css';

/** Statuses whose card can still be replaced and which can still be canceled (the API refuses the others). */
export const RUNNING = new Set<StoreSubscriptionView['status']>(['Pending', 'Active', 'Past Due']);

const TONES: Partial<Record<StoreSubscriptionView['status'], string>> = {
  Active: 'positive',
  'Past Due': 'negative',
  Pending: 'warning',
};

/** Each cycle's price with the add-ons on it. */
function cyclePrice(subscription: StoreSubscriptionView) {
  return subscription.addOns.reduce(
    (total, addOn) => ({
      amountMinor: total.amountMinor + addOn.price.amountMinor * addOn.quantity,
      currency: total.currency,
    }),
    subscription.price,
  );
}

function nextCharge(subscription: StoreSubscriptionView): string {
  if (subscription.status === 'Canceled') {
    return subscription.canceledAt ? `None: canceled on ${formatDate(subscription.canceledAt)}` : 'None: canceled';
  }
  if (subscription.status === 'Expired') return 'None: it has ended';
  if (subscription.status === 'Past Due') return `${formatMoney(subscription.balance)} owing: update your card to pay it`;
  return subscription.nextBillingDate
    ? `${formatMoney(cyclePrice(subscription))} on ${formatDay(subscription.nextBillingDate)}`
    : 'Not scheduled yet';
}

export type SubscriptionAction =
  { kind: 'add-add-on' } | { kind: 'remove-add-on'; addOnId: string } | { kind: 'update-card' } | { kind: 'cancel' };

/**
 * One subscription: its shop, status, price, next charge and card, its add-ons, and what can be
 * done with it (add or remove an add-on, update the card, cancel) while it still runs.
 */
export function SubscriptionCard({
  subscription,
  onAction,
}: {
  subscription: StoreSubscriptionView;
  onAction: (action: SubscriptionAction) => void;
}) {
  const titleId = useId();
  const addOnsId = useId();
  const running = RUNNING.has(subscription.status);
  const canAddOn = subscription.status === 'Active' && subscription.availableAddOns.length > 0;
  const cycle = everyCycle(subscription.billingFrequencyMonths);
  return (
    <article className={styles.card} aria-labelledby={titleId} data-subscription-id={subscription.id}>
      <div className={styles.subscriptionHeader}>
        <div className={styles.header}>
          <h3 id={titleId} className={styles.itemTitle} tabIndex={-1}>
            <Link to={productPath(subscription.productStockId)}>
              {subscription.productTitle}, {subscription.gradeName}
            </Link>
          </h3>
          <p className={styles.muted}>
            From <Link to={shopPath(subscription.shop.handle)}>{subscription.shop.shopName}</Link>
          </p>
        </div>
        <span className={styles.badge} data-tone={TONES[subscription.status]}>
          {statusWords(subscription.status)}
        </span>
      </div>
      {subscription.status === 'Past Due' ? (
        <p className={styles.banner}>
          <strong>The last payment failed.</strong> Update your card to pay the {formatMoney(subscription.balance)} owing.
        </p>
      ) : null}
      <dl className={styles.facts}>
        <dt>Price</dt>
        <dd>
          {formatMoney(subscription.price)} {cycle}
        </dd>
        <dt>Next charge</dt>
        <dd>{nextCharge(subscription)}</dd>
        <dt>Card</dt>
        <dd>{describeCard(subscription.paymentMethod)}</dd>
      </dl>
      {subscription.addOns.length ? (
        <section className={styles.section} aria-labelledby={addOnsId}>
          <h4 id={addOnsId} className={styles.sectionTitle}>
            Add-ons
          </h4>
          <ul className={styles.addOns}>
            {subscription.addOns.map((addOn) => (
              <li key={addOn.addOnId} className={styles.addOn}>
                <span>
                  {addOn.name}
                  {addOn.quantity > 1 ? ` × ${addOn.quantity}` : ''}: {formatMoney(times(addOn.price, addOn.quantity))} {cycle}
                </span>
                {running ? (
                  <Button
                    variant="ghost"
                    size="small"
                    onClick={() => onAction({ kind: 'remove-add-on', addOnId: addOn.addOnId })}
                  >
                    Remove<span className="visually-hidden"> {addOn.name}</span>
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {running ? (
        <div className={styles.actions}>
          {canAddOn ? (
            <Button variant="secondary" onClick={() => onAction({ kind: 'add-add-on' })}>
              Add an add-on
            </Button>
          ) : null}
          <Button
            variant={subscription.status === 'Past Due' ? 'primary' : 'secondary'}
            onClick={() => onAction({ kind: 'update-card' })}
          >
            Update card
          </Button>
          <Button variant="ghost" onClick={() => onAction({ kind: 'cancel' })}>
            Cancel subscription
          </Button>
        </div>
      ) : null}
    </article>
  );
}
