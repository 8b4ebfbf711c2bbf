import * as penpayRoutes from '../../shared/routes/penpay';
import { shopScope } from '../lib/db/entities/store-figures';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { countMyProducts, dashboardSeo, readFigures, readRecentSales } from './lib/dashboard';
import { readMyMerchant } from './lib/merchants';
import { toMerchantAccountView } from './lib/views';

export const handler = createHandler(penpayRoutes.showMerchantDashboard, async ({ caller }) => {
  const db = getDb();
  const now = new Date();
  const merchant = await readMyMerchant(db, caller.userId);
  const [view, figures, recentSales, productCounts] = await Promise.all([
    toMerchantAccountView(merchant),
    readFigures(db, merchant, shopScope, now),
    readRecentSales(db, merchant.merchantAccountId, shopScope),
    countMyProducts(db, merchant.merchantAccountId),
  ]);
  return {
    seo: dashboardSeo(`Dashboard · ${merchant.shopName}`, `Sales, revenue and subscriptions of ${merchant.shopName}.`),
    merchant: view,
    figures,
    recentSales,
    productCounts,
  };
});
