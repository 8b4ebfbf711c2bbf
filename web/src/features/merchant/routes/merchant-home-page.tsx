import { useId, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { useMyMerchantAccount } from '../api/get-my-merchant-account';
import type { MerchantAccountView, SaleView } from '../api/merchant-keys';
import { useMerchantDashboard } from '../api/show-merchant-dashboard';
import { ConnectGatewayForm } from '../components/connect-gateway-form';
import { DiscountCodesSection } from '../components/discount-codes-section';
import { FiguresSection, RecentSales } from '../components/figures-section';
import { GatewayFacts } from '../components/gateway-facts';
import { MerchantGate } from '../components/merchant-gate';
import { NewProductDialog } from '../components/new-product-dialog';
import { RegisterForm } from '../components/register-form';
import { RefundDialog } from '../components/refund-dialog';
import { ProductList } from '../components/stock-lists';
import { StockTabs } from '../components/stock-tabs';
import { isNotFound } from '../lib/form-errors';
import { shopPath } from '../lib/paths';
import noticeStyles from '../../../components/notice.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/merchant.module.css';

const FALLBACK_SEO = { title: `Your shop · ${APP_NAME}` };

/** What the page shows besides the dashboard: connecting payments, then what was connected. */
type Step =
  { kind: 'dashboard' } | { kind: 'connect'; afterRegistering: boolean } | { kind: 'connected'; account: MerchantAccountView };

function RegisterStep({ userId, onRegistered }: { userId: string; onRegistered: () => void }) {
  return (
    <div className={pageStyles.page}>
      <PageMeta seo={{ title: `Open your shop · ${APP_NAME}` }} />
      <header className={styles.header}>
        <h1 className={pageStyles.title}>Open your shop</h1>
        <p className={pageStyles.lede}>
          Sell digital products once or by subscription, paid into your own Braintree account. First your shop, then how you get
          paid.
        </p>
      </header>
      <RegisterForm userId={userId} onRegistered={onRegistered} />
    </div>
  );
}

function ConnectStep({
  userId,
  account,
  afterRegistering,
  onConnected,
  onLeave,
}: {
  userId: string;
  account: MerchantAccountView;
  afterRegistering: boolean;
  onConnected: (account: MerchantAccountView) => void;
  onLeave: () => void;
}) {
  return (
    <div className={pageStyles.page}>
      <PageMeta seo={{ title: `Connect payments · ${APP_NAME}` }} />
      <header className={styles.header}>
        <h1 className={pageStyles.title}>
          {account.gateway ? 'Connect another payment account' : 'Connect your payment account'}
        </h1>
        <p className={pageStyles.lede}>
          Customers pay {account.shopName} through your own Braintree account. Nothing can be sold until one is connected.
        </p>
      </header>
      {afterRegistering ? (
        <div className={noticeStyles.status} role="status">
          <p>
            Your shop is open at <Link to={shopPath(account.handle)}>{shopPath(account.handle)}</Link>.
          </p>
        </div>
      ) : null}
      <ConnectGatewayForm userId={userId} onConnected={onConnected} />
      <div className={pageStyles.actions}>
        <Button variant="ghost" onClick={onLeave}>
          {account.gateway ? 'Keep the current account' : 'Skip for now: set up products first'}
        </Button>
      </div>
    </div>
  );
}

function ConnectedStep({ account, onDone }: { account: MerchantAccountView; onDone: () => void }) {
  const titleId = useId();
  if (!account.gateway) return null;
  return (
    <div className={pageStyles.page}>
      <PageMeta seo={{ title: `Payments connected · ${APP_NAME}` }} />
      <header className={styles.header}>
        <h1 className={pageStyles.title}>Payments connected</h1>
        <p className={pageStyles.lede}>{account.shopName} can take payments now.</p>
      </header>
      <section className={pageStyles.card} aria-labelledby={titleId}>
        <h2 id={titleId} className={pageStyles.sectionTitle}>
          Your payment account
        </h2>
        <GatewayFacts gateway={account.gateway} />
      </section>
      <div className={pageStyles.actions}>
        <Button onClick={onDone}>Go to your dashboard</Button>
      </div>
    </div>
  );
}

function ProductsSection({ userId, counts }: { userId: string; counts: { stocked: number; unstocked: number } | undefined }) {
  const titleId = useId();
  const [creating, setCreating] = useState(false);
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <div className={styles.sectionHeader}>
        <h2 id={titleId} className={pageStyles.sectionTitle}>
          Products
        </h2>
        <Button onClick={() => setCreating(true)}>New product</Button>
      </div>
      <StockTabs label="Products" counts={counts}>
        {(state) => <ProductList userId={userId} state={state} />}
      </StockTabs>
      {creating ? <NewProductDialog userId={userId} onClose={() => setCreating(false)} /> : null}
    </section>
  );
}

function PaymentsSection({ account, onConnect }: { account: MerchantAccountView; onConnect: () => void }) {
  const titleId = useId();
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Payments
      </h2>
      {account.gateway ? (
        <GatewayFacts gateway={account.gateway} />
      ) : (
        <p className={pageStyles.muted}>No payment account is connected: customers can see your shop but not buy.</p>
      )}
      <div className={pageStyles.actions}>
        <Button variant={account.gateway ? 'secondary' : 'primary'} onClick={onConnect}>
          {account.gateway ? 'Connect another account' : 'Connect payments'}
        </Button>
      </div>
    </section>
  );
}

function Dashboard({ userId, account, onConnect }: { userId: string; account: MerchantAccountView; onConnect: () => void }) {
  const dashboard = useMerchantDashboard(userId);
  const [refunding, setRefunding] = useState<SaleView | null>(null);
  return (
    <div className={pageStyles.widePage}>
      <PageMeta seo={dashboard.data?.seo ?? FALLBACK_SEO} />
      <header className={styles.header}>
        <div className={styles.headerRow}>
          <h1 className={pageStyles.title}>{account.shopName}</h1>
          <Link to={shopPath(account.handle)}>View your shop</Link>
        </div>
        <p className={pageStyles.lede}>
          {shopPath(account.handle)} · prices in {account.currency}
        </p>
      </header>
      {account.gateway ? null : (
        <div className={styles.notice}>
          <p>
            <strong>Your shop does not take payments yet.</strong> Connect a payment account so customers can buy.
          </p>
          <div className={pageStyles.actions}>
            <Button onClick={onConnect}>Connect payments</Button>
          </div>
        </div>
      )}
      {dashboard.data ? (
        <>
          <FiguresSection figures={dashboard.data.figures} />
          <RecentSales sales={dashboard.data.recentSales} onRefund={setRefunding} />
          {refunding ? (
            <RefundDialog
              userId={userId}
              invoiceId={refunding.invoiceId}
              description={`${refunding.description}, bought by ${refunding.customer.name}`}
              onClose={() => setRefunding(null)}
            />
          ) : null}
        </>
      ) : dashboard.isError ? (
        <ErrorState
          title="Your figures could not be loaded"
          error={dashboard.error}
          onRetry={() => void dashboard.refetch()}
          retrying={dashboard.isFetching}
        />
      ) : (
        <PageSpinner label="Loading your figures" />
      )}
      <ProductsSection userId={userId} counts={dashboard.data?.productCounts} />
      <DiscountCodesSection userId={userId} currency={account.currency} />
      <PaymentsSection account={account} onConnect={onConnect} />
    </div>
  );
}

function MerchantHome({ userId }: { userId: string }) {
  const account = useMyMerchantAccount(userId);
  const [step, setStep] = useState<Step>({ kind: 'dashboard' });

  if (account.data) {
    if (step.kind === 'connect') {
      return (
        <ConnectStep
          userId={userId}
          account={account.data}
          afterRegistering={step.afterRegistering}
          onConnected={(connected) => setStep({ kind: 'connected', account: connected })}
          onLeave={() => setStep({ kind: 'dashboard' })}
        />
      );
    }
    if (step.kind === 'connected') return <ConnectedStep account={step.account} onDone={() => setStep({ kind: 'dashboard' })} />;
    return (
      <Dashboard userId={userId} account={account.data} onConnect={() => setStep({ kind: 'connect', afterRegistering: false })} />
    );
  }
  if (account.isError && isNotFound(account.error)) {
    return <RegisterStep userId={userId} onRegistered={() => setStep({ kind: 'connect', afterRegistering: true })} />;
  }
  return (
    <div className={pageStyles.page}>
      <PageMeta seo={FALLBACK_SEO} />
      <h1 className={pageStyles.title}>Your shop</h1>
      {account.isError ? (
        <ErrorState
          title="Your shop could not be loaded"
          error={account.error}
          onRetry={() => void account.refetch()}
          retrying={account.isFetching}
        />
      ) : (
        <PageSpinner label="Loading your shop" />
      )}
    </div>
  );
}

/**
 * /merchant: the signed-in person's shop. Without one, opening it (name, address, currency,
 * description, logo), then connecting the payment account it is paid into. With one, its
 * dashboard: 30 days of figures, recent sales, the products on sale and off, and payments.
 */
export function MerchantHomePage() {
  return <MerchantGate>{(userId) => <MerchantHome userId={userId} />}</MerchantGate>;
}
