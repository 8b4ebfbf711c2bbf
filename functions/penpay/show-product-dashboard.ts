import * as merchantRoutes from '../../shared/routes/merchant';
import { productScope } from '../lib/db/entities/store-figures';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, listGradesOf, readMyProduct } from './lib/catalog';
import { dashboardSeo, readFigures, readRecentSales } from './lib/dashboard';
import { readMyMerchant } from './lib/merchants';
import { toGradeView, toMerchantAccountView, toProductView } from './lib/views';

export const handler = createHandler(merchantRoutes.showProductDashboard, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const merchant = await readMyMerchant(db, caller.userId);
  const product = await readMyProduct(db, merchant, params.productStockId);
  const scope = productScope(product.productStockId);
  const [merchantView, productView, grades, figures, recentSales] = await Promise.all([
    toMerchantAccountView(merchant),
    toProductView(product, merchant.gateway !== undefined),
    listGradesOf(db, product.productStockId),
    readFigures(db, merchant, scope, now),
    readRecentSales(db, merchant.merchantAccountId, scope),
  ]);
  return {
    seo: dashboardSeo(`${product.title} · Dashboard`, `Sales, revenue and subscriptions of ${product.title}.`),
    merchant: merchantView,
    product: productView,
    grades: grades.map((grade) => toGradeView(grade, isPurchasable(merchant, product, grade))),
    figures,
    recentSales,
  };
});
