import * as merchantRoutes from '../../shared/routes/merchant';
import { shopScope } from '../lib/db/entities/store-figures';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { countMyProducts, dashboardDays, dashboardSeo, figuresFrom, readFigureItems, readRecentSales } from './lib/dashboard';
import { readMerchantAccount, readMyMerchantId } from './lib/merchants';
import { toMerchantAccountView } from './lib/views';

export const handler = createHandler(merchantRoutes.showMerchantDashboard, async ({ caller }) => {
  const db = getDb();
  const now = new Date();
  const days = dashboardDays(now);
  // Everything but the shop's own item needs only its id: one round of reads, all at once.
  const merchantAccountId = await readMyMerchantId(db, caller.userId);
  const [merchant, figureItems, recentSales, productCounts] = await Promise.all([
    readMerchantAccount(db, merchantAccountId),
    readFigureItems(db, merchantAccountId, shopScope, days),
    readRecentSales(db, merchantAccountId, shopScope),
    countMyProducts(db, merchantAccountId),
  ]);
  return {
    seo: dashboardSeo(`Dashboard · ${merchant.shopName}`, `Sales, revenue and subscriptions of ${merchant.shopName}.`),
    merchant: await toMerchantAccountView(merchant),
    figures: figuresFrom(figureItems, days, merchant.currency),
    recentSales,
    productCounts,
  };
});
