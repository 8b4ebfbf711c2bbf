import { useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { priceQuerySchema } from '@shared/schemas/subscriptions';
import { Button } from '../../../components/button';
import { PaymentMethodForm } from '../../../components/card-form/payment-method-form';
import { PageMeta, type PageSeo } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { track } from '../../../lib/analytics';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { toast } from '../../../lib/toast';
import { useFulfillSubscriptionInvoice } from '../api/fulfill-subscription-invoice';
import { useCheckoutInvoiceWithCode } from '../api/get-checkout-invoice';
import { useCheckoutScreen } from '../api/show-checkout-screen';
import type {
  CheckoutScreen,
  InvoiceView,
  PaymentClient,
  PaymentMethodNonce,
  ProPriceId,
  SubscriptionView,
} from '../api/subscription-keys';
import { ProDiscountCodeField } from '../components/pro-discount-code-field';
import { PlanLimitsList } from '../components/plan-card';
import { ResumePro } from '../components/resume-pro';
import { everyInterval, formatDay, formatMoney, intervalName } from '../lib/format';
import { CHECKOUT_PRICE_PARAM, SUBSCRIPTION_PATH, UPGRADES_PATH } from '../lib/paths';
import { paymentProblemOf } from '../../../lib/payments/payment-problem';
import factsStyles from '../../../components/facts.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/subscriptions.module.css';

const FALLBACK_SEO: PageSeo = { title: `Checkout · ${APP_NAME}` };

function UnknownPrice() {
  return (
    <>
      <PageMeta seo={{ title: `Unknown price · ${APP_NAME}` }} />
      <NotFoundState title="That is not one of our prices">
        <p>The link you followed names a price we do not sell. Choose monthly or yearly on the plans page.</p>
        <StateLinks>
          <Link to={UPGRADES_PATH}>See the plans</Link>
        </StateLinks>
      </NotFoundState>
    </>
  );
}

function AlreadyOnPro({ level }: { level: 1 | 2 }) {
  return (
    <EmptyState title="You’re on Pro already" icon="✓" level={level}>
      <p>There is nothing to pay. Your plan, card and payments are on your subscription page.</p>
      <StateLinks>
        <Link to={SUBSCRIPTION_PATH}>Go to your subscription</Link>
      </StateLinks>
    </EmptyState>
  );
}

/** Canceled with paid time left: Pro is still theirs, and the way back is to resume it, not to pay again. */
function CanceledWithPaidTime({ userId, subscription }: { userId: string; subscription: SubscriptionView }) {
  const until = subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null;
  return (
    <EmptyState title="Your Pro plan is canceled" level={2}>
      <p>
        You keep Pro{until ? ` until ${until}` : ' to the end of the period you paid for'}. To keep it after that, resume your
        plan: nothing is charged today.
      </p>
      <ResumePro userId={userId} subscription={subscription} />
      <StateLinks>
        <Link to={SUBSCRIPTION_PATH}>Go to your subscription</Link>
      </StateLinks>
    </EmptyState>
  );
}

function OrderSummary({ screen, invoice }: { screen: CheckoutScreen; invoice: InvoiceView }) {
  const titleId = useId();
  const { price, stock } = screen;
  const discount = invoice.discount;
  // A code off every charge lowers the renewals too; one off the first charge leaves them at the price.
  const renewal =
    discount?.appliesTo === 'every'
      ? { amountMinor: price.price.amountMinor - discount.saving.amountMinor, currency: price.price.currency }
      : price.price;
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Order summary
      </h2>
      <ul className={factsStyles.summaryLines} aria-label="Order lines">
        {invoice.lines.map((line) => (
          <li key={`${line.productId}-${line.priceId}`} className={factsStyles.summaryLine}>
            <span>
              {line.description}
              {line.quantity > 1 ? ` × ${line.quantity}` : null}
            </span>
            <span>{formatMoney({ amountMinor: line.amountMinor, currency: invoice.total.currency })}</span>
          </li>
        ))}
        {discount ? (
          <li className={factsStyles.summaryLine}>
            <span>Discount code {discount.code}</span>
            <span>−{formatMoney(discount.saving)}</span>
          </li>
        ) : null}
      </ul>
      <p className={factsStyles.summaryTotal}>
        <span>Total today</span>
        <span>{formatMoney(invoice.total)}</span>
      </p>
      <p className={pageStyles.muted}>
        {formatMoney(invoice.total)} today, then {formatMoney(renewal)} {everyInterval(price.interval)}, cancel any time.
      </p>
      <PlanLimitsList limits={stock.limits.pro} />
      <p className={pageStyles.muted}>
        <Link to={UPGRADES_PATH}>Change plan</Link>
      </p>
    </section>
  );
}

function Payment({ invoice, payment, userId }: { invoice: InvoiceView; payment: PaymentClient; userId: string }) {
  const titleId = useId();
  const navigate = useNavigate();
  const fulfill = useFulfillSubscriptionInvoice(userId, invoice.id);
  useEffect(() => track('Checkout Step', { step: 'viewed' }), []);
  const pay = async (method: PaymentMethodNonce) => {
    // The card form hands over a payment method only once the card is entered and accepted.
    track('Checkout Step', { step: 'card-entered' });
    track('Checkout Step', { step: 'submitted' });
    try {
      await fulfill.mutateAsync(method);
    } catch (error) {
      if (paymentProblemOf(error).kind === 'declined') track('Checkout Step', { step: 'declined' });
      throw error;
    }
    track('Checkout Step', { step: 'paid' });
    track('Upgrade Completed');
    toast.success('Welcome to Pro');
    await navigate(SUBSCRIPTION_PATH);
  };

  const problem = fulfill.isError ? paymentProblemOf(fulfill.error, { conflict: 'You are on Pro already.' }) : null;
  // A code used up while paying is no reason to leave: the buyer takes it off and pays the full price here.
  const codeProblem = fulfill.error instanceof ApiError && fulfill.error.code === 'DISCOUNT_CODE_USED_UP';
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Payment
      </h2>
      <PaymentMethodForm
        client={payment}
        label="Card details"
        submitLabel={`Pay ${formatMoney(invoice.total)}`}
        pendingLabel="Paying…"
        onPaymentMethod={pay}
        problem={
          problem ? (
            <>
              <p>{problem.message}</p>
              {problem.kind === 'conflict' && !codeProblem ? (
                <p>
                  <Link to={SUBSCRIPTION_PATH}>Go to your subscription</Link>
                </p>
              ) : null}
            </>
          ) : null
        }
      />
    </section>
  );
}

/** The order, the discount code and the card form; a code applied or removed replaces the invoice paid. */
function CheckoutForms({
  screen,
  payment,
  userId,
  priceId,
}: {
  screen: CheckoutScreen;
  payment: PaymentClient;
  userId: string;
  priceId: ProPriceId;
}) {
  const [invoice, setInvoice] = useState<InvoiceView>(screen.invoice);
  const pricing = useCheckoutInvoiceWithCode(priceId);
  const price = (code: string | undefined) => pricing.mutate(code, { onSuccess: (answer) => setInvoice(answer.invoice) });
  const problem = pricing.isError ? pricing.error.message : null;
  return (
    <div className={styles.checkout}>
      <div className={styles.checkoutSide}>
        <OrderSummary screen={screen} invoice={invoice} />
        <ProDiscountCodeField
          invoice={invoice}
          applying={pricing.isPending}
          problem={problem}
          onApply={(code) => price(code)}
          onRemove={() => price(undefined)}
        />
      </div>
      {/* Keyed by the invoice: a new price starts the payment afresh, with nothing left of the last attempt's answer. */}
      <Payment key={invoice.id} invoice={invoice} payment={payment} userId={userId} />
    </div>
  );
}

function Checkout({ userId, priceId }: { userId: string; priceId: ProPriceId }) {
  const query = useCheckoutScreen(userId, priceId);
  const error = query.error;

  if (query.data) {
    const screen = query.data;
    const onPro = screen.payment === null || screen.subscription?.givesPro === true;
    return (
      <>
        <PageMeta seo={screen.seo} />
        <header className={pageStyles.header}>
          <h1 className={pageStyles.title}>Checkout</h1>
          <p className={pageStyles.lede}>
            {screen.stock.product.name}, billed {intervalName(screen.price.interval).toLowerCase()}.
          </p>
        </header>
        {screen.subscription?.resumeRenewsOn ? (
          <CanceledWithPaidTime userId={userId} subscription={screen.subscription} />
        ) : onPro || !screen.payment ? (
          <AlreadyOnPro level={2} />
        ) : (
          <CheckoutForms screen={screen} payment={screen.payment} userId={userId} priceId={priceId} />
        )}
      </>
    );
  }
  if (error instanceof ApiError && error.status === 400) return <UnknownPrice />;
  let content;
  if (error instanceof ApiError && error.status === 409) content = <AlreadyOnPro level={1} />;
  else if (query.isError)
    content = (
      <ErrorState
        title="The checkout could not be loaded"
        error={error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else content = <PageSpinner label="Loading the checkout" />;
  return (
    <>
      <PageMeta seo={FALLBACK_SEO} />
      {content}
    </>
  );
}

/** Signed out: the way to log in, opened at once (the visitor came here to pay); the login lands back on this checkout. */
function LogInToPay() {
  const { open } = useLoginModal();
  useEffect(() => open(), [open]);
  return (
    <>
      <PageMeta seo={FALLBACK_SEO} />
      <EmptyState title="Log in to upgrade to Pro" level={1}>
        <p>Pro belongs to your account: log in (or sign up) first, and you come straight back here to pay.</p>
        <StateLinks>
          <Button onClick={open}>Log in</Button>
        </StateLinks>
      </EmptyState>
    </>
  );
}

/**
 * /checkout?price=pro-monthly|pro-yearly: the order and the card form for one of Pro's prices.
 * Signed in only; an unknown price is said plainly, with the way back to the plans.
 */
export function CheckoutPage() {
  const [searchParams] = useSearchParams();
  const { user, isPending } = useCurrentUser();
  const price = priceQuerySchema.safeParse({ priceId: searchParams.get(CHECKOUT_PRICE_PARAM) ?? '' });

  let content;
  if (!price.success) content = <UnknownPrice />;
  else if (isPending)
    content = (
      <>
        <PageMeta seo={FALLBACK_SEO} />
        <PageSpinner label="Loading" />
      </>
    );
  else if (!user) content = <LogInToPay />;
  else content = <Checkout userId={user.userId} priceId={price.data.priceId} />;

  return <div className={pageStyles.widePage}>{content}</div>;
}
