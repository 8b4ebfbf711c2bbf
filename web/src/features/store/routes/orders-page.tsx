import { useId, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { CancelSubscriptionDialog } from '../../../components/billing/cancel-subscription-dialog';
import { useFocusCardAfterDialog } from '../../../components/billing/subscription-card';
import { UpdateCardDialog } from '../../../components/billing/update-card-dialog';
import { Button } from '../../../components/button';
import { MoreButton } from '../../../components/more-button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, StateLinks } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useShopPaymentClient } from '../api/get-shop-payment-client';
import { useMyOrders } from '../api/list-my-orders';
import { useMySubscriptions } from '../api/list-my-subscriptions';
import type { OrderView, StoreSubscriptionView } from '../api/store-keys';
import { useUpdateSubscriptionPaymentMethod } from '../api/update-subscription-payment-method';
import { AddAddOnDialog } from '../components/add-add-on-dialog';
import { OrderDownloads } from '../components/order-downloads';
import { RemoveAddOnDialog } from '../components/remove-add-on-dialog';
import { ShopSubscription, type SubscriptionAction } from '../components/shop-subscription';
import { formatDate, formatDay, formatMoney, times } from '../lib/format';
import { shopPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/store.module.css';

const SEO = { title: `My orders · ${APP_NAME}` };

type DialogProps = { userId: string; subscription: StoreSubscriptionView; onClose: () => void };

/** A new card for a subscription, from its shop's own payment account. */
function UpdateShopCardDialog({ userId, subscription, onClose }: DialogProps) {
  const client = useShopPaymentClient(userId, subscription.shop.id);
  const update = useUpdateSubscriptionPaymentMethod(userId, subscription.id);
  return (
    <UpdateCardDialog
      subject={`${subscription.productTitle}, ${subscription.gradeName}`}
      owing={subscription.status === 'Past Due' ? subscription.balance : null}
      client={client}
      update={update}
      onClose={onClose}
    />
  );
}

/** Canceling a subscription: nothing more is charged for it, and what is paid for stays paid for. */
function CancelShopSubscriptionDialog({ userId, subscription, onClose }: DialogProps) {
  const cancel = useCancelSubscription(userId, subscription.id);
  const paidThrough = subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null;
  return (
    <CancelSubscriptionDialog
      subject={`${subscription.productTitle}, ${subscription.gradeName}`}
      consequence={paidThrough ? `You have paid through ${paidThrough}.` : null}
      cancel={cancel}
      canceledMessage={() => `Your subscription to ${subscription.productTitle} is canceled`}
      onClose={onClose}
    />
  );
}

/** The dialog open for one subscription, if any. */
function ActionDialog({ userId, subscription, action, onClose }: DialogProps & { action: SubscriptionAction }) {
  if (action.kind === 'add-add-on') return <AddAddOnDialog userId={userId} subscription={subscription} onClose={onClose} />;
  if (action.kind === 'update-card')
    return <UpdateShopCardDialog userId={userId} subscription={subscription} onClose={onClose} />;
  if (action.kind === 'cancel')
    return <CancelShopSubscriptionDialog userId={userId} subscription={subscription} onClose={onClose} />;
  const addOn = subscription.addOns.find((candidate) => candidate.addOnId === action.addOnId);
  return addOn ? <RemoveAddOnDialog userId={userId} subscription={subscription} addOn={addOn} onClose={onClose} /> : null;
}

function Subscriptions({ userId }: { userId: string }) {
  const titleId = useId();
  const query = useMySubscriptions(userId);
  const [open, setOpen] = useState<{ subscriptionId: string; action: SubscriptionAction } | null>(null);
  useFocusCardAfterDialog(open?.subscriptionId ?? null);
  const subscriptions = query.data?.items ?? [];
  const opened = open ? subscriptions.find((subscription) => subscription.id === open.subscriptionId) : undefined;

  let content;
  if (query.data) {
    content = subscriptions.length ? (
      <ul className={styles.list}>
        {subscriptions.map((subscription) => (
          <li key={subscription.id}>
            <ShopSubscription
              subscription={subscription}
              onAction={(action) => setOpen({ subscriptionId: subscription.id, action })}
            />
          </li>
        ))}
      </ul>
    ) : (
      <p className={pageStyles.muted}>No subscriptions. Those you buy in a shop show here, to manage.</p>
    );
  } else if (query.isError) {
    content = (
      <ErrorState
        title="Your subscriptions could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        compact
      />
    );
  } else {
    content = <PageSpinner label="Loading your subscriptions" />;
  }

  return (
    <section className={pageStyles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Subscriptions
      </h2>
      {content}
      {open && opened ? (
        <ActionDialog userId={userId} subscription={opened} action={open.action} onClose={() => setOpen(null)} />
      ) : null}
    </section>
  );
}

function OrderCard({ userId, order }: { userId: string; order: OrderView }) {
  const titleId = useId();
  return (
    <article className={pageStyles.card} aria-labelledby={titleId}>
      <div className={styles.subscriptionHeader}>
        <h3 id={titleId} className={styles.itemTitle}>
          <Link to={shopPath(order.shop.handle)}>{order.shop.shopName}</Link>
        </h3>
        <span className={pageStyles.muted}>
          Paid <time dateTime={order.paidAt}>{formatDate(order.paidAt)}</time>
        </span>
      </div>
      <ul className={styles.orderLines} aria-label="What you bought">
        {order.lines.map((line) => (
          <li key={line.productStockGradeId} className={styles.orderLine}>
            <span>
              {line.description}
              {line.quantity > 1 ? ` × ${line.quantity}` : null}
              {line.billing === 'subscription' ? ' (subscription, first period)' : null}
            </span>
            <span>{formatMoney(times(line.unitPrice, line.quantity))}</span>
          </li>
        ))}
        {order.discount ? (
          <li className={`${styles.orderLine} ${styles.saving}`}>
            <span>Discount ({order.discount.code})</span>
            <span>−{formatMoney(order.discount.saving)}</span>
          </li>
        ) : null}
      </ul>
      <p className={styles.summaryTotal}>
        <span>Total</span>
        <span>{formatMoney(order.total)}</span>
      </p>
      {order.card ? (
        <p className={pageStyles.muted}>
          Paid with {order.card.cardType} ending {order.card.last4}
        </p>
      ) : null}
      <OrderDownloads userId={userId} order={order} />
      <OrderRefunds order={order} />
    </article>
  );
}

const REFUND_STATUS = { succeeded: 'Refunded', pending: 'Refund under way', failed: 'Refund failed' } as const;

/** What the shop gave back of the order, and why (a failed refund returned nothing, and says so). */
function OrderRefunds({ order }: { order: OrderView }) {
  if (order.refunds.length === 0) return null;
  return (
    <ul className={styles.orderLines} aria-label="Refunds">
      {order.refunds.map((refund) => (
        <li key={refund.refundId} className={styles.orderLine}>
          <span>
            {REFUND_STATUS[refund.status]}{' '}
            <time dateTime={refund.completedAt ?? refund.createdAt}>{formatDate(refund.completedAt ?? refund.createdAt)}</time>
            {refund.lines.length > 0 && refund.scope === 'items'
              ? `: ${refund.lines.map((line) => line.description).join(', ')}`
              : ''}
            . {refund.reason}
            {refund.canceledSubscriptions > 0 ? ' The subscription was canceled with it.' : ''}
          </span>
          <span>−{formatMoney(refund.amount)}</span>
        </li>
      ))}
    </ul>
  );
}

function Orders({ userId }: { userId: string }) {
  const titleId = useId();
  const query = useMyOrders(userId);
  const orders = query.data?.pages.flatMap((page) => page.items) ?? [];

  let content;
  if (query.data) {
    content = orders.length ? (
      <>
        <ul className={styles.list}>
          {orders.map((order) => (
            <li key={order.invoiceId}>
              <OrderCard userId={userId} order={order} />
            </li>
          ))}
        </ul>
        {query.isFetchNextPageError ? (
          <ErrorState
            title="More orders could not be loaded"
            error={query.error}
            onRetry={() => void query.fetchNextPage()}
            retrying={query.isFetchingNextPage}
            compact
          />
        ) : null}
        <MoreButton query={query} label="Load more" className={styles.more} />
      </>
    ) : (
      <p className={pageStyles.muted}>No orders yet. What you buy in a shop shows here once it is paid.</p>
    );
  } else if (query.isError) {
    content = (
      <ErrorState
        title="Your orders could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        compact
      />
    );
  } else {
    content = <PageSpinner label="Loading your orders" />;
  }

  return (
    <section className={pageStyles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Orders
      </h2>
      {content}
    </section>
  );
}

/**
 * /store/orders: what the signed-in customer bought in every shop. Their subscriptions first
 * (status, next charge, card, add-ons; add or remove an add-on, update the card, cancel), then
 * their paid orders, newest first, a page at a time.
 */
export function OrdersPage() {
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();

  let content;
  if (isPending) content = <PageSpinner label="Loading" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to see your orders">
        <p>Orders and subscriptions belong to your account: log in, and you come straight back here.</p>
        <StateLinks>
          <Button onClick={loginModal.open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    );
  else
    content = (
      <>
        <Subscriptions userId={user.userId} />
        <Orders userId={user.userId} />
      </>
    );

  return (
    <div className={pageStyles.page}>
      <PageMeta seo={SEO} />
      <header className={styles.header}>
        <h1 className={pageStyles.title}>My orders</h1>
        <p className={styles.lede}>Your subscriptions and what you bought, in every shop.</p>
      </header>
      {content}
    </div>
  );
}
