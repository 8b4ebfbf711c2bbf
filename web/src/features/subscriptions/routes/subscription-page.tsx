import { useId, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { CancelSubscriptionDialog } from '../../../components/billing/cancel-subscription-dialog';
import { SubscriptionCard, useFocusCardAfterDialog } from '../../../components/billing/subscription-card';
import { UpdateCardDialog } from '../../../components/billing/update-card-dialog';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, StateLinks } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useCancelSubscription } from '../api/cancel-subscription';
import { usePaymentClientToken } from '../api/get-payment-client-token';
import { useSubscriptionScreen } from '../api/show-subscription-screen';
import type { PaymentRecordView, PlanLimitsView, SubscriptionScreen, SubscriptionView } from '../api/subscription-keys';
import { useUpdateSubscriptionPaymentMethod } from '../api/update-subscription-payment-method';
import { PlanLimitsList } from '../components/plan-card';
import { ResumePro } from '../components/resume-pro';
import { formatDate, formatDay, formatMoney, perInterval } from '../lib/format';
import { UPGRADES_PATH } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import tableStyles from '../../../components/table.module.css';

const FALLBACK_SEO = { title: `Your subscription · ${APP_NAME}` };

/** The last day Pro lasts once canceled: the last day paid for. */
function proUntil(subscription: SubscriptionView): string | null {
  if (subscription.paidThroughDate) return formatDay(subscription.paidThroughDate);
  return subscription.proEndsAt ? formatDate(subscription.proEndsAt) : null;
}

/** The day Pro would end if canceled now: the last day paid for (or, past due, the grace period's end). */
function proStaysUntil(subscription: SubscriptionView): string | null {
  if (subscription.status === 'Past Due' && subscription.graceEndsAt) return formatDate(subscription.graceEndsAt);
  return subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null;
}

/** The past-due alert's words: until when Pro is kept unless the card is updated, or that it is paused. */
function pastDueWarning(subscription: SubscriptionView) {
  return (
    <>
      <strong>Your last payment failed.</strong>{' '}
      {!subscription.givesPro
        ? 'Pro is paused until a payment goes through: update your card to get it back at once.'
        : subscription.graceEndsAt
          ? `Update your card by ${formatDate(subscription.graceEndsAt)} to keep Pro.`
          : 'Update your card to keep Pro.'}
    </>
  );
}

/** What comes next: the next charge, or when Pro ends. */
function nextCharge(subscription: SubscriptionView): string {
  if (subscription.status === 'Canceled') {
    const until = proUntil(subscription);
    return until ? `None: Pro until ${until}` : 'None';
  }
  if (subscription.status === 'Past Due') {
    return subscription.graceEndsAt
      ? `${formatMoney(subscription.balance)} owing: Pro until ${formatDate(subscription.graceEndsAt)} unless it is paid`
      : `${formatMoney(subscription.balance)} owing`;
  }
  return subscription.nextBillingDate
    ? `${formatMoney(subscription.price)} on ${formatDay(subscription.nextBillingDate)}`
    : 'Not scheduled yet';
}

function ProPlan({
  userId,
  subscription,
  limits,
  onUpdateCard,
  onCancel,
}: {
  userId: string;
  subscription: SubscriptionView;
  limits: PlanLimitsView;
  onUpdateCard: () => void;
  onCancel: () => void;
}) {
  const until = proUntil(subscription);
  return (
    <SubscriptionCard
      subscriptionId={subscription.id}
      as="section"
      headingLevel={2}
      title="Your plan"
      alert={subscription.status === 'Past Due' ? pastDueWarning(subscription) : null}
      // A resumed plan is Pending at the gateway until its first charge: to its subscriber, it is simply active again.
      status={subscription.status === 'Pending' && subscription.givesPro ? 'Active' : subscription.status}
      facts={[{ term: 'Plan', value: limits.planId === 'pro' ? 'Pro' : 'Free' }]}
      price={`${formatMoney(subscription.price)} ${perInterval(subscription.interval)}`}
      nextCharge={nextCharge(subscription)}
      paymentMethod={subscription.paymentMethod}
      onUpdateCard={onUpdateCard}
      onCancel={onCancel}
    >
      <PlanLimitsList limits={limits} />
      {subscription.status === 'Canceled' ? (
        <p className={pageStyles.muted}>
          Your subscription is canceled: nothing more will be charged
          {until ? `, and your account goes back to Free after ${until}` : ''}.
        </p>
      ) : null}
      <ResumePro userId={userId} subscription={subscription} />
    </SubscriptionCard>
  );
}

type DialogProps = { userId: string; subscription: SubscriptionView; onClose: () => void };

/** A new card for Pro, from the Pro plan's own payment account. */
function UpdateProCardDialog({ userId, subscription, onClose }: DialogProps) {
  const client = usePaymentClientToken(userId);
  const update = useUpdateSubscriptionPaymentMethod(userId, subscription.id);
  return (
    <UpdateCardDialog
      owing={subscription.status === 'Past Due' ? subscription.balance : null}
      client={client}
      update={update}
      onClose={onClose}
    />
  );
}

/** Canceling Pro: it stays to the end of the period paid for. */
function CancelProDialog({ userId, subscription, onClose }: DialogProps) {
  const cancel = useCancelSubscription(userId, subscription.id);
  const until = proStaysUntil(subscription);
  return (
    <CancelSubscriptionDialog
      consequence={`Pro stays until the end of the period you have paid for${until ? `: you keep it until ${until}` : ''}, then your account goes back to Free.`}
      cancel={cancel}
      canceledMessage={({ subscription: canceled }) => {
        const endsOn = canceled.paidThroughDate ? formatDay(canceled.paidThroughDate) : until;
        return endsOn ? `Your subscription is canceled. You keep Pro until ${endsOn}.` : 'Your subscription is canceled.';
      }}
      onClose={onClose}
    />
  );
}

function FreePlan({ limits, ended }: { limits: PlanLimitsView; ended: SubscriptionView | null }) {
  const titleId = useId();
  const endedOn = ended
    ? ended.proEndsAt
      ? formatDate(ended.proEndsAt)
      : ended.paidThroughDate
        ? formatDay(ended.paidThroughDate)
        : null
    : null;
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        You&rsquo;re on Free
      </h2>
      {ended ? <p className={pageStyles.muted}>Your Pro subscription has ended{endedOn ? ` (${endedOn})` : ''}.</p> : null}
      <PlanLimitsList limits={limits} />
      <div className={pageStyles.actions}>
        <Link to={UPGRADES_PATH} className={buttonClassName()}>
          See what Pro gives
        </Link>
      </div>
    </section>
  );
}

function Payments({ payments }: { payments: PaymentRecordView[] }) {
  const titleId = useId();
  return (
    <section className={pageStyles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Payments
      </h2>
      {payments.length ? (
        <div className={tableStyles.tableWrap}>
          <table className={tableStyles.table} aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col" className={tableStyles.amount}>
                  Amount
                </th>
                <th scope="col">Card</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.transactionId}>
                  <td>
                    <time dateTime={payment.chargedAt}>{formatDate(payment.chargedAt)}</time>
                  </td>
                  <td>
                    {payment.description}
                    {payment.refunds.map((refund) => (
                      <div key={refund.refundedAt} className={pageStyles.muted}>
                        {refund.operation === 'void' ? 'Cancelled before it went through' : 'Refunded'}{' '}
                        {formatMoney(refund.amount)} on <time dateTime={refund.refundedAt}>{formatDate(refund.refundedAt)}</time>:{' '}
                        {refund.reason}
                      </div>
                    ))}
                  </td>
                  <td className={tableStyles.amount}>{formatMoney(payment.amount)}</td>
                  <td>{payment.card ? `${payment.card.cardType} ending ${payment.card.last4}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className={pageStyles.muted}>No payments yet.</p>
      )}
    </section>
  );
}

function Subscription({ userId, screen }: { userId: string; screen: SubscriptionScreen }) {
  const [dialog, setDialog] = useState<'card' | 'cancel' | null>(null);
  const { subscription, currentPlan, payments } = screen;
  // A past-due subscription stays manageable after its grace period: a new card brings Pro back.
  const pastDue = subscription?.status === 'Past Due';
  const hasPro = subscription !== null && (subscription.givesPro || currentPlan.planId === 'pro' || pastDue);
  useFocusCardAfterDialog(subscription && dialog ? subscription.id : null);
  return (
    <>
      {subscription && hasPro ? (
        <ProPlan
          userId={userId}
          subscription={subscription}
          limits={currentPlan}
          onUpdateCard={() => setDialog('card')}
          onCancel={() => setDialog('cancel')}
        />
      ) : (
        <FreePlan limits={currentPlan} ended={subscription} />
      )}
      <Payments payments={payments} />
      {subscription && dialog === 'card' ? (
        <UpdateProCardDialog userId={userId} subscription={subscription} onClose={() => setDialog(null)} />
      ) : null}
      {subscription && dialog === 'cancel' ? (
        <CancelProDialog userId={userId} subscription={subscription} onClose={() => setDialog(null)} />
      ) : null}
    </>
  );
}

function SubscriptionScreenView({ userId }: { userId: string }) {
  const query = useSubscriptionScreen(userId);
  if (query.data) {
    return (
      <>
        <PageMeta seo={query.data.seo} />
        <Subscription userId={userId} screen={query.data} />
      </>
    );
  }
  return (
    <>
      <PageMeta seo={FALLBACK_SEO} />
      {query.isError ? (
        <ErrorState
          title="Your subscription could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <PageSpinner label="Loading your subscription" />
      )}
    </>
  );
}

/**
 * /subscription: the signed-in person's plan. With Pro: its status, price, next charge and card,
 * with the ways to replace the card and to cancel; a past-due one says so first. On Free, the
 * way to Pro. Their payments either way.
 */
export function SubscriptionPage() {
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();

  let content;
  if (isPending) content = <PageSpinner label="Loading" />;
  else if (!user)
    content = (
      <EmptyState title="Log in to see your subscription">
        <StateLinks>
          <Button onClick={loginModal.open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    );
  else content = <SubscriptionScreenView userId={user.userId} />;

  return (
    <>
      {user ? null : <PageMeta seo={FALLBACK_SEO} />}
      <div className={pageStyles.page}>
        <header className={pageStyles.header}>
          <h1 className={pageStyles.title}>Your subscription</h1>
        </header>
        {content}
      </div>
    </>
  );
}
