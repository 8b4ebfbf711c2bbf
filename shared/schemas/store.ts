/**
 * The storefront's shop side (/api/i/penpay): shops as customers see them, carts, invoices,
 * orders and subscriptions. Shapes shared by the route table, the handlers and the web app's
 * forms; the catalogue they show (products, grades and their ids) is the merchant's, in
 * merchant.ts.
 */
import * as z from '../zod';
import {
  addOnSchema,
  gatewayIdSchema,
  gradeSchema,
  idOf,
  imageSchema,
  MAX_ADD_ON_QUANTITY,
  merchantAccountIdSchema,
  productStockGradeIdSchema,
  productStockSchema,
  SHOP_CURRENCIES,
} from './merchant';
import { orderDownloadSchema } from './digital-products';
import { discountCodeTextSchema, invoiceDiscountSchema } from './discounts';
import { moneySchema, paymentClientSchema, paymentMethodSchema, SUBSCRIPTION_STATUSES } from './subscriptions';

// ---------------------------------------------------------------------------------------------
// Values

/** How many of one one-time grade a cart may hold; a subscription grade is one per cart. */
export const MAX_QUANTITY = 99;
/** Lines in one cart: a paid cart is recorded in one database transaction (100 items at most). */
export const MAX_CART_LINES = 20;

export const cartItemIdSchema = idOf('cit', 'cart item');
const invoiceIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid invoice id'));
const subscriptionIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{3,36}$/, 'Not a valid subscription id'));

// ---------------------------------------------------------------------------------------------
// Path parameters and queries

export const cartItemParamsSchema = z.strictObject({ cartItemId: cartItemIdSchema });
export const storeInvoiceParamsSchema = z.strictObject({ invoiceId: invoiceIdSchema });
export const orderFileParamsSchema = z.strictObject({
  invoiceId: invoiceIdSchema,
  fileId: z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid id')),
});
export const storeSubscriptionParamsSchema = z.strictObject({ subscriptionProductId: subscriptionIdSchema });
export const storeAddOnParamsSchema = z.strictObject({
  subscriptionProductId: subscriptionIdSchema,
  addOnId: gatewayIdSchema('add-on id'),
});
export const cartQuerySchema = z.strictObject({
  merchantAccountId: merchantAccountIdSchema,
  /** A discount code to price the invoice with (checked on the server; refused with the reason). */
  discountCode: z.optional(discountCodeTextSchema),
});

// ---------------------------------------------------------------------------------------------
// Request bodies

export const addCartItemBodySchema = z.strictObject({
  productStockGradeId: productStockGradeIdSchema,
  quantity: z._default(
    z
      .number({ message: 'Quantity must be a whole number' })
      .check(
        z.int('Quantity must be a whole number'),
        z.minimum(1, 'Quantity must be at least 1'),
        z.maximum(MAX_QUANTITY, `At most ${MAX_QUANTITY}`),
      ),
    1,
  ),
});

/** A cart line's new quantity, set (not added): the same bounds as adding. */
export const updateCartItemBodySchema = z.strictObject({
  quantity: z
    .number({ message: 'Quantity must be a whole number' })
    .check(
      z.int('Quantity must be a whole number'),
      z.minimum(1, 'Quantity must be at least 1: remove the item to take it out'),
      z.maximum(MAX_QUANTITY, `At most ${MAX_QUANTITY}`),
    ),
});

const nonceSchema = z
  .string({ message: 'Send the payment method nonce from the card form' })
  .check(z.minLength(1, 'Send the payment method nonce from the card form'), z.maxLength(4_096));
export const storeFulfillBodySchema = z.strictObject({
  paymentMethodNonce: nonceSchema,
  deviceData: z.optional(z.string().check(z.maxLength(8_192))),
});
export const storePaymentMethodBodySchema = storeFulfillBodySchema;
export const addOnBodySchema = z.strictObject({
  addOnId: gatewayIdSchema('add-on id'),
  quantity: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_ADD_ON_QUANTITY)), 1),
});

// ---------------------------------------------------------------------------------------------
// Answers

/** A shop as customers see it. */
export const shopSchema = z.strictObject({
  id: z.string(),
  handle: z.string(),
  shopName: z.string(),
  description: z.string(),
  currency: z.enum(SHOP_CURRENCIES),
  logo: z.nullable(imageSchema),
  /** False until the merchant connects a payment account: the shop can be seen, not bought from. */
  acceptsPayments: z.boolean(),
});
export type ShopView = z.infer<typeof shopSchema>;

export const CART_ITEM_STATUSES = ['ok', 'price-changed', 'unavailable'] as const;
/**
 * A line of a customer's cart, priced from the grade as it is now. 'price-changed': the price
 * moved since it was added (shown, with the old one, before paying); 'unavailable': unstocked,
 * made private or gone, so it is left out of the invoice.
 */
export const cartItemSchema = z.strictObject({
  id: z.string(),
  merchantAccountId: z.string(),
  productStockId: z.string(),
  productStockGradeId: z.string(),
  productTitle: z.string(),
  gradeName: z.string(),
  billing: z.enum(['once', 'subscription']),
  quantity: z.int(),
  unitPrice: moneySchema,
  /** The price when it was added. */
  addedUnitPrice: moneySchema,
  status: z.enum(CART_ITEM_STATUSES),
  addedAt: z.string(),
});
export type CartItemView = z.infer<typeof cartItemSchema>;

export const storeInvoiceSchema = z.strictObject({
  id: z.string(),
  merchantAccountId: z.string(),
  status: z.enum(['open', 'paying', 'paid', 'void']),
  lines: z.array(
    z.strictObject({
      productStockId: z.string(),
      productStockGradeId: z.string(),
      description: z.string(),
      billing: z.enum(['once', 'subscription']),
      quantity: z.int(),
      unitPrice: moneySchema,
      /** What the discount code takes off this line (all its units; a subscription's first cycle). */
      discount: moneySchema,
    }),
  ),
  /** What is charged now: the one-time lines and each subscription's first cycle, less the discount. */
  total: moneySchema,
  /** The discount code the invoice is priced with, and what it saves now; null without one. */
  discount: z.nullable(invoiceDiscountSchema),
  lastDecline: z.nullable(z.strictObject({ reason: z.string(), message: z.string(), at: z.string() })),
  paidAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type StoreInvoiceView = z.infer<typeof storeInvoiceSchema>;

/** The cart for one shop and its invoice: null when nothing in it can be bought. */
export const cartInvoiceSchema = z.strictObject({
  shop: shopSchema,
  items: z.array(cartItemSchema),
  invoice: z.nullable(storeInvoiceSchema),
});

export const storeSubscriptionSchema = z.strictObject({
  id: z.string(),
  shop: z.strictObject({ id: z.string(), handle: z.string(), shopName: z.string() }),
  productStockId: z.string(),
  productStockGradeId: z.string(),
  productTitle: z.string(),
  gradeName: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Each cycle's price, add-ons not included. */
  price: moneySchema,
  billingFrequencyMonths: z.int(),
  balance: moneySchema,
  nextBillingDate: z.nullable(z.string()),
  paidThroughDate: z.nullable(z.string()),
  canceledAt: z.nullable(z.string()),
  paymentMethod: paymentMethodSchema,
  addOns: z.array(z.strictObject({ addOnId: z.string(), name: z.string(), quantity: z.int(), price: moneySchema })),
  /** Add-ons the grade offers that can still be added (or raised). */
  availableAddOns: z.array(addOnSchema),
  createdAt: z.string(),
});
export type StoreSubscriptionView = z.infer<typeof storeSubscriptionSchema>;

/**
 * A refund of an order, as its merchant and its customer see it: how much, why, what of the
 * order it covers ('whole', an 'amount', or chosen 'items': their lines), how it reached the card
 * (a 'refund' of a settled payment, or a 'void' of one not settled yet, which is never charged),
 * and where it stands. A 'failed' refund returned nothing and says why in the gateway's words.
 */
export const refundSchema = z.strictObject({
  refundId: z.string(),
  /** 1 for the order's first refund asked for, and so on. */
  number: z.int(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  scope: z.enum(['whole', 'amount', 'items']),
  amount: moneySchema,
  reason: z.string(),
  lines: z.array(z.strictObject({ description: z.string(), quantity: z.int(), amount: moneySchema })),
  operations: z.array(z.strictObject({ kind: z.enum(['refund', 'void']), amount: moneySchema })),
  /** Subscriptions of the order canceled with the refund (the merchant asked for it). */
  canceledSubscriptions: z.int(),
  failure: z.nullable(z.string()),
  createdAt: z.string(),
  completedAt: z.nullable(z.string()),
});
export type RefundView = z.infer<typeof refundSchema>;

export const orderSchema = z.strictObject({
  invoiceId: z.string(),
  shop: z.strictObject({ id: z.string(), handle: z.string(), shopName: z.string() }),
  lines: storeInvoiceSchema.shape.lines,
  total: moneySchema,
  /** The discount code it was paid with, and what it saved; null without one. */
  discount: z.nullable(z.strictObject({ code: z.string(), saving: moneySchema })),
  card: z.nullable(z.strictObject({ cardType: z.string(), last4: z.string() })),
  paidAt: z.string(),
  /** The files the order's grades deliver, with the downloads left of each. */
  downloads: z.array(orderDownloadSchema),
  /** Refunded so far (refunds under way included). */
  refunded: moneySchema,
  /** The order's refunds, oldest first (failed ones too). */
  refunds: z.array(refundSchema),
});
export type OrderView = z.infer<typeof orderSchema>;

/**
 * One of the caller's open carts (a shop where they have something in their cart): the shop, how
 * many items can be bought now (the quantities of the lines still sold, added up: what the cart
 * icon counts), on how many lines in all, how many of those lines are no longer sold (their
 * product or grade stopped being sold, or the shop closed), and when something was last added.
 * The cart's page is named by `merchantAccountId`.
 */
export const openCartSchema = z.strictObject({
  merchantAccountId: z.string(),
  shop: z.strictObject({ id: z.string(), handle: z.string(), shopName: z.string() }),
  itemCount: z.int(),
  lineCount: z.int(),
  unavailableLineCount: z.int(),
  lastAddedAt: z.string(),
});
export type OpenCartView = z.infer<typeof openCartSchema>;
/** The caller's open carts, the one added to last first. */
export const openCartsSchema = z.strictObject({ items: z.array(openCartSchema) });

/**
 * A refund asked by the order's merchant. Nothing but `reason`: the whole of what is left. Or one
 * of `amountMinor` (an amount, in the order's currency's minor units), `lineIndexes` (lines of
 * the order, 0-based) or `productStockGradeIds` (its lines of these grades). `cancelSubscription`
 * also cancels the subscriptions whose charge the refund covers. `knownRefunds` is how many
 * refunds the order showed when the merchant asked: a repeat of the request (a double click, a
 * retry) names the same number and gets the same refund; absent, the order's count now.
 */
export const MAX_REFUND_REASON = 500;
export const refundOrderBodySchema = z.strictObject({
  amountMinor: z.optional(
    z
      .number({ message: 'The amount must be a whole number of cents' })
      .check(z.int('The amount must be a whole number of cents'), z.minimum(1, 'The amount must be at least 1 cent')),
  ),
  lineIndexes: z.optional(
    z.array(z.int().check(z.minimum(0), z.maximum(MAX_CART_LINES - 1))).check(z.minLength(1), z.maxLength(MAX_CART_LINES)),
  ),
  productStockGradeIds: z.optional(z.array(productStockGradeIdSchema).check(z.minLength(1), z.maxLength(MAX_CART_LINES))),
  reason: z
    .string({ message: 'Say why the order is refunded' })
    .check(
      z.trim(),
      z.minLength(1, 'Say why the order is refunded'),
      z.maxLength(MAX_REFUND_REASON, `At most ${MAX_REFUND_REASON} characters`),
    ),
  cancelSubscription: z.optional(z.boolean()),
  knownRefunds: z.optional(z.int().check(z.minimum(0), z.maximum(1000))),
});
export type RefundOrderBody = z.infer<typeof refundOrderBodySchema>;

/**
 * An order as its merchant refunds it: its lines (each with whether it was refunded item-wise
 * and whether it is a subscription), what was paid, refunded and is left to refund, and its
 * refunds, oldest first.
 */
export const merchantOrderRefundsSchema = z.strictObject({
  invoiceId: z.string(),
  lines: z.array(
    z.strictObject({
      index: z.int(),
      productStockGradeId: z.string(),
      description: z.string(),
      billing: z.enum(['once', 'subscription']),
      quantity: z.int(),
      amount: moneySchema,
      refunded: z.boolean(),
    }),
  ),
  total: moneySchema,
  refunded: moneySchema,
  left: moneySchema,
  paidAt: z.string(),
  refunds: z.array(refundSchema),
});
export type MerchantOrderRefundsView = z.infer<typeof merchantOrderRefundsSchema>;

/** A refund just asked for, and its order as the merchant now sees it. */
export const refundAnswerSchema = z.strictObject({ refund: refundSchema, order: merchantOrderRefundsSchema });

export const customerOrdersSchema = z.strictObject({ items: z.array(orderSchema), cursor: z.nullable(z.string()) });
export const customerSubscriptionsSchema = z.strictObject({ items: z.array(storeSubscriptionSchema) });

export const shopPageSchema = shopSchema;
export const publicProductSchema = z.strictObject({
  shop: shopSchema,
  product: productStockSchema,
  grades: z.array(gradeSchema),
});
export const publicGradeSchema = z.strictObject({ shop: shopSchema, product: productStockSchema, grade: gradeSchema });
export const publicGradesSchema = z.strictObject({ items: z.array(gradeSchema) });

export const storePaymentClientSchema = paymentClientSchema;
