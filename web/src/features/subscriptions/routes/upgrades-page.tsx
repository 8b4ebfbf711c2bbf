import { useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { track } from '../../../lib/analytics';
import { useCurrentUser } from '../../../lib/current-user';
import { useUpgradesScreen } from '../api/show-upgrades-screen';
import type { PriceView, UpgradesScreen } from '../api/subscription-keys';
import { BillingSwitch } from '../components/billing-switch';
import { PlanCard } from '../components/plan-card';
import { ResumePro } from '../components/resume-pro';
import { checkoutPath, SUBSCRIPTION_PATH } from '../lib/paths';
import { formatDay, formatMoney, perInterval, yearlySaving } from '../lib/format';
import noticeStyles from '../../../components/notice.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/subscriptions.module.css';

/** Under Pro's price: what the yearly price comes to a month and saves, or that monthly can be stopped any time. */
function priceNote(chosen: PriceView, monthly: PriceView | undefined): string {
  if (chosen.interval === 'month') return `${perInterval('month')}, cancel any time`;
  const saving = yearlySaving(monthly, chosen);
  const perMonth = `${perInterval('year')}: ${formatMoney(chosen.perMonth)} a month`;
  return saving ? `${perMonth}, you save ${formatMoney(saving.saved)} (${saving.percent}%)` : perMonth;
}

/** "You're on Pro", with when it ends if it does, and where to manage it. */
function OnPro({ subscription }: { subscription: UpgradesScreen['subscription'] }) {
  const { user } = useCurrentUser();
  const endsOn =
    subscription?.status === 'Canceled' && subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null;
  return (
    <div className={noticeStyles.status} role="status">
      <p>
        <strong>You&rsquo;re on Pro.</strong>
        {endsOn ? ` Your subscription is canceled: Pro until ${endsOn}.` : null}
      </p>
      {user && subscription?.resumeRenewsOn ? <ResumePro userId={user.userId} subscription={subscription} /> : null}
      <Link to={SUBSCRIPTION_PATH} className={styles.strongLink}>
        Manage your subscription
      </Link>
    </div>
  );
}

function Upgrades({ screen }: { screen: UpgradesScreen }) {
  const { stock, currentPlan, subscription, signedIn } = screen;
  const monthly = stock.prices.find((price) => price.interval === 'month');
  const [priceId, setPriceId] = useState<PriceView['priceId']>(monthly?.priceId ?? 'pro-monthly');
  const chosen = stock.prices.find((price) => price.priceId === priceId) ?? stock.prices[0];
  const onPro = currentPlan.planId === 'pro' || subscription?.givesPro === true;
  const onFree = signedIn && !onPro;

  return (
    <>
      <header className={pageStyles.header}>
        <h1 className={pageStyles.title}>{stock.product.name}</h1>
        <p className={pageStyles.lede}>{stock.product.description}</p>
      </header>
      {chosen ? <BillingSwitch prices={stock.prices} value={chosen.priceId} onChange={setPriceId} /> : null}
      <div className={styles.plans}>
        <PlanCard
          name="Free"
          badge={onFree ? 'Your plan' : undefined}
          price={formatMoney({ amountMinor: 0, currency: chosen?.price.currency ?? 'USD' })}
          priceNote="for everyone, always"
          limits={stock.limits.free}
        />
        <PlanCard
          name="Pro"
          badge={onPro ? 'Your plan' : undefined}
          price={chosen ? formatMoney(chosen.price) : ''}
          priceNote={chosen ? priceNote(chosen, monthly) : ''}
          limits={stock.limits.pro}
          highlight
        >
          {onPro ? (
            <OnPro subscription={subscription} />
          ) : chosen ? (
            <>
              <Link
                to={checkoutPath(chosen.priceId)}
                className={buttonClassName({ block: true })}
                onClick={() => track('Upgrade Started')}
              >
                Upgrade to Pro
              </Link>
              {signedIn ? null : <p className={pageStyles.muted}>You log in first, then pay.</p>}
            </>
          ) : null}
        </PlanCard>
      </div>
    </>
  );
}

/** /upgrades: Free and Pro side by side, Pro's monthly and yearly prices, and the way to upgrade. Anyone may see it. */
export function UpgradesPage() {
  const { user, isPending } = useCurrentUser();
  // Asked once it is known who is asking: the answer for a visitor and for a member differ.
  const query = useUpgradesScreen(user?.userId ?? '', !isPending);

  let content;
  if (query.data) content = <Upgrades screen={query.data} />;
  else if (query.isError)
    content = (
      <ErrorState
        title="The plans could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else content = <PageSpinner label="Loading the plans" />;

  return (
    <>
      <PageMeta seo={query.data?.seo ?? { title: `Transfer Pro · ${APP_NAME}` }} />
      <div className={pageStyles.widePage}>{content}</div>
    </>
  );
}
