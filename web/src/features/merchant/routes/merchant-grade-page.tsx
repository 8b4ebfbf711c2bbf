import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { PageMeta } from '../../../components/page-meta';
import type { GradeDashboard } from '../api/merchant-keys';
import { useSetGradeVisibility } from '../api/set-grade-visibility';
import { useGradeDashboard } from '../api/show-grade-dashboard';
import { useStockGrade } from '../api/stock-grade';
import { useUnstockGrade } from '../api/unstock-grade';
import { DashboardFallback } from '../components/dashboard-fallback';
import { FiguresSection, RecentSales } from '../components/figures-section';
import { GradeBillingSection, GradePlanSection, GradePriceSection } from '../components/grade-billing';
import { GradeEditor } from '../components/grade-editor';
import { GradeFilesSection } from '../components/grade-files-section';
import { MerchantGate } from '../components/merchant-gate';
import { Breadcrumb, ItemHeader } from '../components/product-header';
import { SellingSection } from '../components/selling-section';
import { VisibilitySection } from '../components/visibility-form';
import { describePrice, GRADE_VISIBILITY_HINTS } from '../lib/format';
import { MERCHANT_PATH, merchantProductPath, shopProductPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/merchant.module.css';

function GradeScreen({ userId, dashboard }: { userId: string; dashboard: GradeDashboard }) {
  const { grade, product } = dashboard;
  const visibility = useSetGradeVisibility(userId, product.id, grade.id);
  const stock = useStockGrade(userId, product.id, grade.id);
  const unstock = useUnstockGrade(userId, product.id, grade.id);
  const billingKey = grade.billing.kind === 'subscription' ? grade.billing.braintreePlanId : 'once';
  return (
    <>
      <PageMeta seo={dashboard.seo} />
      <Breadcrumb trail={[{ label: product.title, to: merchantProductPath(product.id) }]} current={grade.name} />
      <ItemHeader
        title={grade.name}
        visibility={grade.visibility}
        stocked={grade.stocked}
        shopLink={shopProductPath(product.id)}
        extra={<span className={styles.badge}>{describePrice(grade.price, grade.billing)}</span>}
      />
      {grade.stocked && !grade.purchasable ? (
        <div className={styles.notice}>
          <p>
            <strong>Customers cannot buy this grade yet.</strong>{' '}
            {dashboard.merchant.gateway
              ? 'Its product is private or not on sale, or the grade itself is private.'
              : 'Your shop has no payment account connected.'}{' '}
            {dashboard.merchant.gateway ? null : <Link to={MERCHANT_PATH}>Connect one on your shop’s page.</Link>}
          </p>
        </div>
      ) : null}
      <FiguresSection figures={dashboard.figures} />
      <RecentSales sales={dashboard.recentSales} />
      <GradeEditor userId={userId} grade={grade} />
      <GradePriceSection userId={userId} grade={grade} />
      {/* Started afresh from what the server saved whenever the billing changes. */}
      <GradeBillingSection key={`billing-${billingKey}`} userId={userId} grade={grade} currency={dashboard.merchant.currency} />
      <GradePlanSection key={`plan-${billingKey}`} userId={userId} grade={grade} currency={dashboard.merchant.currency} />
      <GradeFilesSection userId={userId} gradeId={grade.id} />
      <VisibilitySection key={grade.visibility} visibility={grade.visibility} hints={GRADE_VISIBILITY_HINTS} save={visibility} />
      <SellingSection noun="grade" stocked={grade.stocked} stock={stock} unstock={unstock} />
    </>
  );
}

function GradeDashboardView({
  userId,
  productStockId,
  productStockGradeId,
}: {
  userId: string;
  productStockId: string;
  productStockGradeId: string;
}) {
  const dashboard = useGradeDashboard(userId, productStockId, productStockGradeId);
  if (dashboard.data) return <GradeScreen userId={userId} dashboard={dashboard.data} />;
  return <DashboardFallback noun="grade" query={dashboard} />;
}

/**
 * /merchant/products/:productStockId/grades/:productStockGradeId: one grade of a merchant's
 * product. Its figures and sales, its details with a live preview of its card, its price, how
 * it is billed (once, or a plan with add-ons) and on which plan, the files it delivers after
 * purchase, who sees it, whether it is on sale.
 */
export function MerchantGradePage() {
  const { productStockId = '', productStockGradeId = '' } = useParams();
  return (
    <MerchantGate>
      {(userId) => (
        <div className={pageStyles.widePage}>
          <GradeDashboardView
            key={`${productStockId}/${productStockGradeId}`}
            userId={userId}
            productStockId={productStockId}
            productStockGradeId={productStockGradeId}
          />
        </div>
      )}
    </MerchantGate>
  );
}
