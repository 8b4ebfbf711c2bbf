import { useId } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { isRunning, SubscriptionCard } from '../../../components/billing/subscription-card';
import { Button } from '../../../components/button';
import type { StoreSubscriptionView } from '../api/store-keys';
import { everyCycle, formatDate, formatDay, formatMoney, times } from '../lib/format';
import { productPath, shopPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

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

/** The add-ons on a subscription, each with the way to remove it while the subscription runs. */
function AddOns({ subscription, onRemove }: { subscription: StoreSubscriptionView; onRemove: (addOnId: string) => void }) {
  const titleId = useId();
  const running = isRunning(subscription.status);
  const cycle = everyCycle(subscription.billingFrequencyMonths);
  return (
    <section className={pageStyles.section} aria-labelledby={titleId}>
      <h4 id={titleId} className={pageStyles.sectionTitle}>
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
              <Button variant="ghost" size="small" onClick={() => onRemove(addOn.addOnId)}>
                Remove<span className="visually-hidden"> {addOn.name}</span>
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * One of the customer's subscriptions in a shop, on the shared subscription card: the product
 * and its shop, the price with its cycle, the next charge with the add-ons in it, and the
 * add-ons, which can be added to (while it is active) and removed while it runs.
 */
export function ShopSubscription({
  subscription,
  onAction,
}: {
  subscription: StoreSubscriptionView;
  onAction: (action: SubscriptionAction) => void;
}) {
  const canAddOn = subscription.status === 'Active' && subscription.availableAddOns.length > 0;
  return (
    <SubscriptionCard
      subscriptionId={subscription.id}
      title={
        <Link to={productPath(subscription.productStockId)}>
          {subscription.productTitle}, {subscription.gradeName}
        </Link>
      }
      byline={
        <>
          From <Link to={shopPath(subscription.shop.handle)}>{subscription.shop.shopName}</Link>
        </>
      }
      alert={
        subscription.status === 'Past Due' ? (
          <>
            <strong>The last payment failed.</strong> Update your card to pay the {formatMoney(subscription.balance)} owing.
          </>
        ) : null
      }
      status={subscription.status}
      price={`${formatMoney(subscription.price)} ${everyCycle(subscription.billingFrequencyMonths)}`}
      nextCharge={nextCharge(subscription)}
      paymentMethod={subscription.paymentMethod}
      actions={
        canAddOn ? (
          <Button variant="secondary" onClick={() => onAction({ kind: 'add-add-on' })}>
            Add an add-on
          </Button>
        ) : null
      }
      onUpdateCard={() => onAction({ kind: 'update-card' })}
      onCancel={() => onAction({ kind: 'cancel' })}
    >
      {subscription.addOns.length ? (
        <AddOns subscription={subscription} onRemove={(addOnId) => onAction({ kind: 'remove-add-on', addOnId })} />
      ) : null}
    </SubscriptionCard>
  );
}
