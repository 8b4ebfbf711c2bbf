import type { QueryClient } from '@tanstack/react-query';
import type * as z from '@shared/zod';
import type {
  gatewayPlansSchema,
  gradeDashboardSchema,
  gradeFeedSchema,
  merchantDashboardSchema,
  productDashboardSchema,
  productFeedSchema,
} from '@shared/schemas/merchant';
import type { GradeView, MerchantAccountView, ProductStockView } from '@shared/schemas/merchant';

export type {
  FiguresView,
  GradeView,
  MerchantAccountView,
  ProductStockView,
  SaleView,
  ShopCurrency,
  Visibility,
} from '@shared/schemas/merchant';
export type { Money } from '@shared/payments/money';
export type { CreateDiscountCodeBody, DiscountCodeView } from '@shared/schemas/discounts';
export type { MerchantOrderRefundsView, RefundOrderBody, RefundView } from '@shared/schemas/store';
export type MerchantDashboard = z.infer<typeof merchantDashboardSchema>;
export type ProductDashboard = z.infer<typeof productDashboardSchema>;
export type GradeDashboard = z.infer<typeof gradeDashboardSchema>;
export type ProductFeed = z.infer<typeof productFeedSchema>;
export type GradeFeed = z.infer<typeof gradeFeedSchema>;
export type GatewayPlans = z.infer<typeof gatewayPlansSchema>;
export type GatewayPlan = GatewayPlans['plans'][number];
export type ImageView = ProductStockView['images'][number];
export type GatewayConnection = NonNullable<MerchantAccountView['gateway']>;
/** Which of a merchant's lists: on sale, or taken off sale. */
export type StockState = 'stocked' | 'unstocked';

/**
 * Query keys of the merchant area, all under ['merchant', userId]: every answer is the signed-in
 * merchant's own, so signing in as someone else never shows another shop from the cache. A
 * product's answers (its dashboard, its grades, its grades' dashboards) share its prefix, so a
 * change to it or to one of its grades refetches them together.
 */
export const merchantKeys = {
  all: ['merchant'] as const,
  user: (userId: string) => ['merchant', userId] as const,
  account: (userId: string) => ['merchant', userId, 'account'] as const,
  dashboard: (userId: string) => ['merchant', userId, 'dashboard'] as const,
  products: (userId: string) => ['merchant', userId, 'products'] as const,
  productList: (userId: string, state: StockState) => ['merchant', userId, 'products', state] as const,
  product: (userId: string, productStockId: string) => ['merchant', userId, 'product', productStockId] as const,
  productDashboard: (userId: string, productStockId: string) =>
    ['merchant', userId, 'product', productStockId, 'dashboard'] as const,
  gradeList: (userId: string, productStockId: string, state: StockState) =>
    ['merchant', userId, 'product', productStockId, 'grades', state] as const,
  gradeDashboard: (userId: string, productStockId: string, productStockGradeId: string) =>
    ['merchant', userId, 'product', productStockId, 'grade', productStockGradeId, 'dashboard'] as const,
  plans: (userId: string) => ['merchant', userId, 'plans'] as const,
  gradeFiles: (userId: string, productStockGradeId: string) => ['merchant', userId, 'grade-files', productStockGradeId] as const,
  discountCodes: (userId: string) => ['merchant', userId, 'discount-codes'] as const,
  orderRefunds: (userId: string, invoiceId: string) => ['merchant', userId, 'order', invoiceId, 'refunds'] as const,
};

/**
 * The merchant account changed (registered, payments connected): the answer is shown at once, and
 * everything else of the merchant is refetched, as whether a grade can be bought depends on the
 * shop taking payments, and the plans on which account is connected.
 */
export async function afterAccountChange(queryClient: QueryClient, userId: string, account: MerchantAccountView): Promise<void> {
  queryClient.setQueryData(merchantKeys.account(userId), account);
  await queryClient.invalidateQueries({
    queryKey: merchantKeys.user(userId),
    predicate: (query) => query.queryKey[2] !== 'account',
  });
}

/**
 * A product changed (made, edited, shown to others or not, stocked or not): its own answers, the
 * lists it is in and the dashboard's counts. With the answer, the product's dashboard shows it
 * at once.
 */
export async function afterProductChange(
  queryClient: QueryClient,
  userId: string,
  productStockId: string,
  product?: ProductStockView,
): Promise<void> {
  if (product) {
    queryClient.setQueryData<z.infer<typeof productDashboardSchema>>(
      merchantKeys.productDashboard(userId, productStockId),
      (dashboard) => (dashboard ? { ...dashboard, product } : dashboard),
    );
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: merchantKeys.product(userId, productStockId) }),
    queryClient.invalidateQueries({ queryKey: merchantKeys.products(userId) }),
    queryClient.invalidateQueries({ queryKey: merchantKeys.dashboard(userId) }),
  ]);
}

/**
 * A grade changed: its product's answers (the grade lists, the product's dashboard, the grade's
 * own) and the product lists, whose "from" price and grade count follow the grades. With the
 * answer, the grade's dashboard shows it at once.
 */
export async function afterGradeChange(
  queryClient: QueryClient,
  userId: string,
  productStockId: string,
  grade?: GradeView,
): Promise<void> {
  if (grade) {
    queryClient.setQueryData<z.infer<typeof gradeDashboardSchema>>(
      merchantKeys.gradeDashboard(userId, productStockId, grade.id),
      (dashboard) => (dashboard ? { ...dashboard, grade } : dashboard),
    );
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: merchantKeys.product(userId, productStockId) }),
    queryClient.invalidateQueries({ queryKey: merchantKeys.products(userId) }),
  ]);
}
