/**
 * The storefront's merchant side (/api/i/penpay/merchant): merchants with their own Braintree
 * account, product stocks and their grades (the catalogue the shop shows, with the values and ids
 * it is checked against), sales figures and dashboards. Shapes shared by the route table, the
 * handlers and the web app's forms; the shop's side is store.ts.
 */
import * as z from '../zod';
import { cursorQueryShape, seoSchema } from './common';
import { moneySchema } from './subscriptions';

// ---------------------------------------------------------------------------------------------
// Values

/**
 * Who sees a product or a grade. 'public': listed in the shop and sold; 'unlisted': sold to
 * anyone with its link, never listed; 'private': the merchant's draft, seen by the merchant only.
 */
export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * Currencies a shop may sell in: ISO 4217 codes with two decimal places, as money is kept in
 * cents (a zero-decimal currency such as JPY would need another minor unit).
 */
export const SHOP_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'SGD',
  'HKD',
  'MXN',
  'BRL',
  'INR',
  'ZAR',
] as const;
export type ShopCurrency = (typeof SHOP_CURRENCIES)[number];

/** The least and most one unit of a grade may cost, in minor units: 0.50 to 100,000.00. */
export const MIN_PRICE_MINOR = 50;
export const MAX_PRICE_MINOR = 10_000_000;

export const MAX_PRODUCT_IMAGES = 8;
/** A product's title and description limits, for the schemas and for the forms' own `maxLength`. */
export const PRODUCT_TITLE_MAX = 120;
export const PRODUCT_DESCRIPTION_MAX = 5_000;
export const MAX_ADD_ONS_PER_GRADE = 10;
/** How many of one add-on a subscription may carry. */
export const MAX_ADD_ON_QUANTITY = 50;

/** 'mer_' and 20 lower-case letters and digits: never a shop handle, which has no '_'. */
export const MERCHANT_ID_PATTERN = /^mer_[a-z0-9]{20}$/;
/** A shop's address on the site: /shop/{handle}. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,28}[a-z0-9])$/;

/** A storefront id (the shop's cart items' too): the prefix, '_' and 20 lower-case letters and digits. */
export const idOf = (prefix: string, what: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[a-z0-9]{20}$`), `Not a valid ${what} id`));

export const merchantAccountIdSchema = idOf('mer', 'merchant account');
export const productStockIdSchema = idOf('prd', 'product');
export const productStockGradeIdSchema = idOf('grd', 'grade');

/** Braintree's ids for plans and add-ons: letters, digits, '-' and '_'. */
export const gatewayIdSchema = (what: string) =>
  z
    .string({ message: `Give the ${what}` })
    .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, `Not a valid ${what}: use the id Braintree shows`));

const visibilitySchema = z.enum(VISIBILITIES, { message: `Visibility must be one of: ${VISIBILITIES.join(', ')}` });
const currencySchema = z.enum(SHOP_CURRENCIES, {
  message: `Choose a currency the shop can sell in: ${SHOP_CURRENCIES.join(', ')}`,
});
export const priceMinorSchema = z
  .number({ message: 'Give the price in cents, as a whole number' })
  .check(
    z.int('Give the price in cents, as a whole number'),
    z.minimum(MIN_PRICE_MINOR, 'A price must be at least 0.50'),
    z.maximum(MAX_PRICE_MINOR, 'A price can be at most 100,000.00'),
  );
const text = (what: string, max: number, min = 0) =>
  z
    .string({ message: `Give the ${what}` })
    .check(
      z.trim(),
      ...(min > 0 ? [z.minLength(min, `Give the ${what}`)] : []),
      z.maxLength(max, `The ${what} can be at most ${max} characters`),
    );
const hexColorSchema = z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour such as #1d4ed8'));
const positionSchema = z.number().check(z.int(), z.minimum(0), z.maximum(9_999));

// ---------------------------------------------------------------------------------------------
// Path parameters and queries

export const merchantAccountParamsSchema = z.strictObject({
  /** The merchant account's id (mer_…) or its shop handle. */
  merchantAccountId: z.string().check(z.regex(/^(mer_[a-z0-9]{20}|[a-z0-9][a-z0-9-]{1,28}[a-z0-9])$/, 'No such shop')),
});
export const productStockParamsSchema = z.strictObject({ productStockId: productStockIdSchema });
export const productStockGradeParamsSchema = z.strictObject({
  productStockId: productStockIdSchema,
  productStockGradeId: productStockGradeIdSchema,
});
export const gradeParamsSchema = z.strictObject({ productStockGradeId: productStockGradeIdSchema });
export const productStockVisibilityParamsSchema = z.strictObject({
  productStockId: productStockIdSchema,
  visibility: visibilitySchema,
});
export const gradeVisibilityParamsSchema = z.strictObject({
  productStockGradeId: productStockGradeIdSchema,
  visibility: visibilitySchema,
});
export const feedQuerySchema = z.strictObject({ ...cursorQueryShape });

// ---------------------------------------------------------------------------------------------
// Request bodies

export const registerMerchantBodySchema = z.strictObject({
  shopName: text('shop name', 80, 2),
  handle: z
    .string({ message: 'Choose the shop address' })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.regex(
        HANDLE_PATTERN,
        'The shop address is 3 to 30 lower-case letters, digits and dashes, not starting or ending with a dash',
      ),
    ),
  currency: currencySchema,
  description: z._default(text('description', 2_000), ''),
  /** An image uploaded through /api/i/file (by base64, url or file): the caller's own, ready. */
  logoFileId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid file id'))),
});

export const updateMerchantBodySchema = z.strictObject({
  shopName: z.optional(registerMerchantBodySchema.shape.shopName),
  description: z.optional(text('description', 2_000)),
  logoFileId: z.optional(z.nullable(z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid file id')))),
});

export const MERCHANT_GATEWAY_ENVIRONMENTS = ['local', 'sandbox', 'production'] as const;
/**
 * The merchant's own Braintree account. 'local' asks the local runtime's gateway for a new test
 * account (no keys to give); 'sandbox' and 'production' take the keys from Braintree's Control
 * Panel (Settings, API). The keys are sealed at once and never answered.
 */
const connectGatewayVariantsSchema = z.discriminatedUnion('environment', [
  z.strictObject({ environment: z.literal('local') }),
  z.strictObject({
    environment: z.enum(['sandbox', 'production']),
    merchantId: z
      .string({ message: 'Give the Braintree merchant id' })
      .check(z.trim(), z.regex(/^[A-Za-z0-9]{4,64}$/, 'Not a Braintree merchant id')),
    publicKey: z
      .string({ message: 'Give the public key' })
      .check(z.trim(), z.regex(/^[A-Za-z0-9]{8,64}$/, 'Not a Braintree public key')),
    privateKey: z
      .string({ message: 'Give the private key' })
      .check(z.trim(), z.regex(/^[A-Za-z0-9]{16,64}$/, 'Not a Braintree private key')),
  }),
]);
/**
 * The fields first, so a field that is not one of them is named in the refusal (a union alone
 * would only say the environment does not match), then the variant the environment asks for.
 */
export const connectGatewayBodySchema = z.pipe(
  z.strictObject({
    environment: z.enum(MERCHANT_GATEWAY_ENVIRONMENTS, {
      message: `The environment is one of: ${MERCHANT_GATEWAY_ENVIRONMENTS.join(', ')}`,
    }),
    merchantId: z.optional(z.string()),
    publicKey: z.optional(z.string()),
    privateKey: z.optional(z.string()),
  }),
  connectGatewayVariantsSchema,
);

export const productDisplaySchema = z.strictObject({
  /** A line under the title in the shop. */
  tagline: z.optional(text('tagline', 120)),
  accentColor: z.optional(hexColorSchema),
  /** Shown first and larger in the shop. */
  featured: z.optional(z.boolean()),
  /** Order in the shop: lower first. */
  position: z.optional(positionSchema),
});
export const gradeDisplaySchema = z.strictObject({
  /** A short label on the grade: "Most popular". */
  badge: z.optional(text('badge', 24)),
  highlighted: z.optional(z.boolean()),
  /** Order among the product's grades: lower first. */
  position: z.optional(positionSchema),
  /** What the grade includes, one line each. */
  features: z.optional(z.array(text('feature', 120, 1)).check(z.maxLength(12, 'At most 12 features'))),
});

export const createProductBodySchema = z.strictObject({
  title: text('title', PRODUCT_TITLE_MAX, 2),
  description: z._default(text('description', PRODUCT_DESCRIPTION_MAX), ''),
  imageFileIds: z._default(
    z
      .array(z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid file id')))
      .check(z.maxLength(MAX_PRODUCT_IMAGES, `At most ${MAX_PRODUCT_IMAGES} images`)),
    [],
  ),
  display: z._default(productDisplaySchema, {}),
  /** New products start private (a draft) unless told otherwise. */
  visibility: z._default(visibilitySchema, 'private'),
});

export const updateProductDisplayBodySchema = z.strictObject({
  title: z.optional(createProductBodySchema.shape.title),
  description: z.optional(text('description', PRODUCT_DESCRIPTION_MAX)),
  imageFileIds: z.optional(createProductBodySchema.shape.imageFileIds),
  display: z.optional(productDisplaySchema),
});

const addOnOfferSchema = z.strictObject({
  /** The add-on's id in the merchant's Braintree account (it must exist there). */
  addOnId: gatewayIdSchema('add-on id'),
  /** The add-on's price per cycle; Braintree's own amount when absent. */
  amountMinor: z.optional(priceMinorSchema),
  maxQuantity: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_ADD_ON_QUANTITY)), 1),
});

/** A grade sold by subscription: the plan in the merchant's Braintree account and the add-ons offered with it. */
export const gradeSubscriptionSchema = z.strictObject({
  braintreePlanId: gatewayIdSchema('Braintree plan id'),
  addOns: z._default(
    z.array(addOnOfferSchema).check(z.maxLength(MAX_ADD_ONS_PER_GRADE, `At most ${MAX_ADD_ONS_PER_GRADE} add-ons`)),
    [],
  ),
});

export const createGradeBodySchema = z.strictObject({
  name: text('grade name', 80, 1),
  description: z._default(text('description', 2_000), ''),
  /** The one-time price, or the price of each billing cycle of a subscription. */
  amountMinor: priceMinorSchema,
  /** Absent or null: sold once. */
  subscription: z._default(z.nullable(gradeSubscriptionSchema), null),
  display: z._default(gradeDisplaySchema, {}),
  visibility: z._default(visibilitySchema, 'public'),
});

export const updateGradeDisplayBodySchema = z.strictObject({
  name: z.optional(createGradeBodySchema.shape.name),
  description: z.optional(text('description', 2_000)),
  display: z.optional(gradeDisplaySchema),
});
export const updateGradeSubscriptionBodySchema = z.strictObject({ subscription: z.nullable(gradeSubscriptionSchema) });
export const updateGradePlanBodySchema = z.strictObject({ braintreePlanId: gatewayIdSchema('Braintree plan id') });
export const updateGradeCostBodySchema = z.strictObject({ amountMinor: priceMinorSchema });

// ---------------------------------------------------------------------------------------------
// Answers

export const imageSchema = z.strictObject({ fileId: z.string(), url: z.string() });

export const gatewayConnectionSchema = z.strictObject({
  environment: z.enum(MERCHANT_GATEWAY_ENVIRONMENTS),
  /** Braintree's merchant id: not a secret, shown so the merchant knows which account is connected. */
  merchantId: z.string(),
  connectedAt: z.string(),
  /** Where to point the account's webhooks in Braintree's Control Panel, so renewals and failures reach the shop. */
  webhookUrl: z.string(),
});

/** The merchant's own account: never its keys. */
export const merchantAccountSchema = z.strictObject({
  id: z.string(),
  handle: z.string(),
  shopName: z.string(),
  description: z.string(),
  currency: z.enum(SHOP_CURRENCIES),
  logo: z.nullable(imageSchema),
  /** Null until a Braintree account is connected: nothing can be sold before. */
  gateway: z.nullable(gatewayConnectionSchema),
  createdAt: z.string(),
});
export type MerchantAccountView = z.infer<typeof merchantAccountSchema>;

export const addOnSchema = z.strictObject({
  addOnId: z.string(),
  name: z.string(),
  price: moneySchema,
  maxQuantity: z.int(),
});

export const gradeBillingSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('once') }),
  z.strictObject({
    kind: z.literal('subscription'),
    braintreePlanId: z.string(),
    billingFrequencyMonths: z.int(),
    addOns: z.array(addOnSchema),
  }),
]);

export const gradeSchema = z.strictObject({
  id: z.string(),
  productStockId: z.string(),
  merchantAccountId: z.string(),
  name: z.string(),
  description: z.string(),
  display: z.strictObject({
    badge: z.nullable(z.string()),
    highlighted: z.boolean(),
    position: z.int(),
    features: z.array(z.string()),
  }),
  visibility: z.enum(VISIBILITIES),
  stocked: z.boolean(),
  /** The one-time price, or each billing cycle's. */
  price: moneySchema,
  billing: gradeBillingSchema,
  /** Whether a customer can buy it now: stocked, not private, its product too, and the shop connected. */
  purchasable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GradeView = z.infer<typeof gradeSchema>;

export const productStockSchema = z.strictObject({
  id: z.string(),
  merchantAccountId: z.string(),
  title: z.string(),
  description: z.string(),
  images: z.array(imageSchema),
  display: z.strictObject({
    tagline: z.nullable(z.string()),
    accentColor: z.nullable(z.string()),
    featured: z.boolean(),
    position: z.int(),
  }),
  visibility: z.enum(VISIBILITIES),
  stocked: z.boolean(),
  /** The lowest price among its purchasable grades; null when none is. */
  priceFrom: z.nullable(moneySchema),
  gradeCount: z.int(),
  /**
   * Whether one of its grades is stocked and not private: something to sell, whatever the shop's
   * payments. A product on sale without one is "not on sale yet" (nothing can be bought).
   */
  hasGradeOnSale: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductStockView = z.infer<typeof productStockSchema>;

export const productFeedSchema = z.strictObject({ items: z.array(productStockSchema), cursor: z.nullable(z.string()) });
export const gradeFeedSchema = z.strictObject({ items: z.array(gradeSchema), cursor: z.nullable(z.string()) });
export const productStockAnswerSchema = productStockSchema;
export const gradeAnswerSchema = gradeSchema;

/** A sale as its merchant sees it: who bought (name and email, to deliver), what, and for how much. */
export const saleSchema = z.strictObject({
  invoiceId: z.string(),
  /** 'order': a cart's sale or a subscription's first cycle; 'renewal': a later cycle; 'add-on': an add-on's prorated charge. */
  kind: z.enum(['order', 'renewal', 'add-on']),
  customer: z.strictObject({ name: z.string(), email: z.nullable(z.string()) }),
  /** Its lines, each with its quantity: "Mug — Large × 2, Poster — A2" (shown as it is). */
  description: z.string(),
  /** All its lines' units together: a figure, not for the description. */
  units: z.int(),
  amount: moneySchema,
  paidAt: z.string(),
});
export type SaleView = z.infer<typeof saleSchema>;

/** Figures of a shop, a product or a grade: the last 30 days day by day, and its subscriptions now. */
export const figuresSchema = z.strictObject({
  currency: z.string(),
  days: z.array(z.strictObject({ date: z.string(), orders: z.int(), units: z.int(), revenueMinor: z.int() })),
  /**
   * `discounts`: what discount codes took off the orders of these days (revenue is after them).
   * Revenue is net of refunds (a refund counts on the day it is made); `refunds` counts and sums them.
   */
  totals: z.strictObject({
    orders: z.int(),
    units: z.int(),
    revenue: moneySchema,
    discounts: moneySchema,
    refunds: z.strictObject({ count: z.int(), amount: moneySchema }),
  }),
  activeSubscriptions: z.int(),
  pastDueSubscriptions: z.int(),
});
export type FiguresView = z.infer<typeof figuresSchema>;

export const merchantDashboardSchema = z.strictObject({
  seo: seoSchema,
  merchant: merchantAccountSchema,
  figures: figuresSchema,
  recentSales: z.array(saleSchema),
  productCounts: z.strictObject({ stocked: z.int(), unstocked: z.int() }),
});
export const productDashboardSchema = z.strictObject({
  seo: seoSchema,
  merchant: merchantAccountSchema,
  product: productStockSchema,
  grades: z.array(gradeSchema),
  figures: figuresSchema,
  recentSales: z.array(saleSchema),
});
export const gradeDashboardSchema = z.strictObject({
  seo: seoSchema,
  merchant: merchantAccountSchema,
  product: productStockSchema,
  grade: gradeSchema,
  figures: figuresSchema,
  recentSales: z.array(saleSchema),
});

export const doneSchema = z.boolean();

/** Plans of the merchant's Braintree account, as the grade editor offers them. */
export const gatewayPlansSchema = z.strictObject({
  plans: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      price: moneySchema,
      billingFrequencyMonths: z.int(),
      addOns: z.array(z.strictObject({ id: z.string(), name: z.string(), price: moneySchema })),
    }),
  ),
});
