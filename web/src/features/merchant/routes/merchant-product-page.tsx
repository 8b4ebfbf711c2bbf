import { useId, useState } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import type { ProductDashboard } from '../api/merchant-keys';
import { useSetProductVisibility } from '../api/set-product-visibility';
import { useProductDashboard } from '../api/show-product-dashboard';
import { useStockProduct } from '../api/stock-product';
import { useUnstockProduct } from '../api/unstock-product';
import { DashboardFallback } from '../components/dashboard-fallback';
import { FiguresSection, RecentSales } from '../components/figures-section';
import { MerchantGate } from '../components/merchant-gate';
import { NewGradeDialog } from '../components/new-grade-dialog';
import { ProductEditor } from '../components/product-editor';
import { Breadcrumb, ItemHeader } from '../components/product-header';
import { SellingSection } from '../components/selling-section';
import { GradeList } from '../components/stock-lists';
import { StockTabs } from '../components/stock-tabs';
import { VisibilitySection } from '../components/visibility-form';
import { PRODUCT_VISIBILITY_HINTS } from '../lib/format';
import { MERCHANT_PATH, shopProductPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/merchant.module.css';

function GradesSection({ userId, dashboard }: { userId: string; dashboard: ProductDashboard }) {
  const titleId = useId();
  const [creating, setCreating] = useState(false);
  const stocked = dashboard.grades.filter((grade) => grade.stocked).length;
  const first = dashboard.grades.length === 0;
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <div className={styles.sectionHeader}>
        <h2 id={titleId} className={pageStyles.sectionTitle}>
          Grades
        </h2>
        <Button onClick={() => setCreating(true)}>{first ? 'Add the first grade' : 'New grade'}</Button>
      </div>
      <p className={pageStyles.muted}>
        Customers buy a product through its grades: each has its own price, sold once or by subscription.
        {first ? ' This product has none yet, so nobody can buy it: add the first one to put it on sale.' : null}
      </p>
      {first ? null : (
        <StockTabs label="Grades" counts={{ stocked, unstocked: dashboard.grades.length - stocked }}>
          {(state) => <GradeList userId={userId} productStockId={dashboard.product.id} state={state} />}
        </StockTabs>
      )}
      {creating ? (
        <NewGradeDialog
          userId={userId}
          productStockId={dashboard.product.id}
          currency={dashboard.merchant.currency}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </section>
  );
}

/** Whether the last 30 days have anything to draw: an order, a unit, a subscription, a sale. */
function hasFigures({ figures, recentSales }: ProductDashboard): boolean {
  const { totals } = figures;
  return (
    totals.orders > 0 ||
    totals.units > 0 ||
    figures.activeSubscriptions > 0 ||
    figures.pastDueSubscriptions > 0 ||
    recentSales.length > 0
  );
}

function ProductScreen({ userId, dashboard }: { userId: string; dashboard: ProductDashboard }) {
  const { product } = dashboard;
  // A new product leads with its next step, its first grade; its charts would only be empty.
  const noGrades = dashboard.grades.length === 0;
  const figuresFirst = hasFigures(dashboard);
  const figures = (
    <>
      <FiguresSection figures={dashboard.figures} />
      <RecentSales sales={dashboard.recentSales} />
    </>
  );
  const visibility = useSetProductVisibility(userId, product.id);
  const stock = useStockProduct(userId, product.id);
  const unstock = useUnstockProduct(userId, product.id);
  return (
    <>
      <PageMeta seo={dashboard.seo} />
      <Breadcrumb trail={[]} current={product.title} />
      <ItemHeader
        title={product.title}
        visibility={product.visibility}
        stocked={product.stocked}
        grades={{ hasGradeOnSale: product.hasGradeOnSale, gradeCount: product.gradeCount }}
        shopLink={shopProductPath(product.id)}
        extra={product.display.featured ? <span className={styles.badge}>Featured</span> : null}
      />
      {dashboard.merchant.gateway ? null : (
        <div className={styles.notice}>
          <p>
            <strong>Nothing here can be bought yet:</strong> your shop has no payment account.{' '}
            <Link to={MERCHANT_PATH}>Connect one on your shop’s page.</Link>
          </p>
        </div>
      )}
      {noGrades ? <GradesSection userId={userId} dashboard={dashboard} /> : null}
      {figuresFirst ? figures : null}
      <ProductEditor userId={userId} product={product} />
      {noGrades ? null : <GradesSection userId={userId} dashboard={dashboard} />}
      <VisibilitySection
        key={product.visibility}
        visibility={product.visibility}
        hints={PRODUCT_VISIBILITY_HINTS}
        save={visibility}
      />
      <SellingSection noun="product" stocked={product.stocked} stock={stock} unstock={unstock} />
      {/* Nothing sold yet: the empty charts come last, under what there is to do. */}
      {figuresFirst || noGrades ? null : figures}
    </>
  );
}

function ProductDashboardView({ userId, productStockId }: { userId: string; productStockId: string }) {
  const dashboard = useProductDashboard(userId, productStockId);
  if (dashboard.data) return <ProductScreen userId={userId} dashboard={dashboard.data} />;
  return <DashboardFallback noun="product" query={dashboard} />;
}

/**
 * /merchant/products/:productStockId: one of the merchant's products. Its figures and sales, its
 * details with a live preview of its card in the shop, its grades (stocked and not, and a new
 * one), who sees it, and whether it is on sale.
 */
export function MerchantProductPage() {
  const { productStockId = '' } = useParams();
  return (
    <MerchantGate>
      {(userId) => (
        <div className={pageStyles.widePage}>
          <ProductDashboardView key={productStockId} userId={userId} productStockId={productStockId} />
        </div>
      )}
    </MerchantGate>
  );
}
