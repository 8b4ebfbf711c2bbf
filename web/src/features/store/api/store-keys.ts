import type * as z from '@shared/zod';
import type { productFeedSchema } from '@shared/schemas/merchant';
import type { cartInvoiceSchema, customerOrdersSchema, publicGradeSchema, publicProductSchema } from '@shared/schemas/store';

import type { StoreSubscriptionView } from '@shared/schemas/store';

export type { GradeView, ProductStockView } from '@shared/schemas/merchant';
export type { CartItemView, OrderView, ShopView, StoreInvoiceView, StoreSubscriptionView } from '@shared/schemas/store';
export type { PaymentClient } from '@shared/schemas/subscriptions';
export type { Money } from '@shared/payments/money';
export type { PaymentMethodNonce } from '../../../lib/payments/payment-method-nonce';
export type ProductPage = z.infer<typeof publicProductSchema>;
export type GradePage = z.infer<typeof publicGradeSchema>;
export type ProductFeedPage = z.infer<typeof productFeedSchema>;
export type CartInvoice = z.infer<typeof cartInvoiceSchema>;
export type OrdersPage = z.infer<typeof customerOrdersSchema>;
export type { OpenCartView } from '@shared/schemas/store';
/** An add-on a subscription's grade offers: its price per cycle and how many one subscription may carry. */
export type AddOnOffer = StoreSubscriptionView['availableAddOns'][number];

/**
 * Query keys of the store, all under ['store']. The shop's pages are the same for everyone
 * (the API shows what visibility allows); a cart, orders, subscriptions and a card form's client
 * token belong to one signed-in person and carry their id, so signing out never shows them to
 * the next person on the device.
 */
export const storeKeys = {
  all: ['store'] as const,
  shop: (shopId: string) => ['store', 'shop', shopId] as const,
  shopProducts: (shopId: string) => ['store', 'shop', shopId, 'products'] as const,
  product: (productStockId: string) => ['store', 'product', productStockId] as const,
  grade: (productStockId: string, gradeId: string) => ['store', 'product', productStockId, 'grade', gradeId] as const,
  carts: (userId: string) => ['store', 'cart', userId] as const,
  cart: (userId: string, merchantAccountId: string) => ['store', 'cart', userId, merchantAccountId] as const,
  /** The list of one's open carts (the top bar's count, a shop's "Your cart"): every cart change invalidates it. */
  openCarts: (userId: string) => ['store', 'open-carts', userId] as const,
  orders: (userId: string) => ['store', 'orders', userId] as const,
  subscriptions: (userId: string) => ['store', 'subscriptions', userId] as const,
  paymentClient: (userId: string, merchantAccountId: string) => ['store', 'payment-client', userId, merchantAccountId] as const,
};
