import * as merchantRoutes from '../../shared/routes/merchant';
import { gradeScope } from '../lib/db/entities/store-figures';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { isPurchasable, readMyGrade, readMyProduct } from './lib/catalog';
import { dashboardSeo, readFigures, readRecentSales } from './lib/dashboard';
import { readMyMerchant } from './lib/merchants';
import { toGradeView, toMerchantAccountView, toProductView } from './lib/views';

export const handler = createHandler(merchantRoutes.showGradeDashboard, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const merchant = await readMyMerchant(db, caller.userId);
  const [product, grade] = await Promise.all([
    readMyProduct(db, merchant, params.productStockId),
    readMyGrade(db, merchant, params.productStockId, params.productStockGradeId),
  ]);
  const scope = gradeScope(grade.productStockGradeId);
  const [merchantView, productView, figures, recentSales] = await Promise.all([
    toMerchantAccountView(merchant),
    toProductView(product, merchant.gateway !== undefined),
    readFigures(db, merchant, scope, now),
    readRecentSales(db, merchant.merchantAccountId, scope),
  ]);
  return {
    seo: dashboardSeo(
      `${grade.name} · ${product.title} · Dashboard`,
      `Sales, revenue and subscriptions of ${product.title}, ${grade.name}.`,
    ),
    merchant: merchantView,
    product: productView,
    grade: toGradeView(grade, isPurchasable(merchant, product, grade)),
    figures,
    recentSales,
  };
});
