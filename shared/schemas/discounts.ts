/**
 * Discount codes: what a merchant creates and lists for a shop, what a superuser creates and lists
 * for the Pro plan, and what an invoice says of the code applied to it. The code is priced on the
 * server only (functions/lib/payments/discount-codes.ts).
 */
import * as z from '../zod';
import { discountCodeTextSchema } from './subscriptions';
import { MAX_PRICE_MINOR, productStockGradeIdSchema, productStockIdSchema } from './merchant';

export { DISCOUNT_CODE_PATTERN, discountCodeTextSchema } from './subscriptions';
export const MAX_DISCOUNT_SCOPE_IDS = 50;
export const MAX_DISCOUNT_USES = 1_000_000;

export const discountCodeParamsSchema = z.strictObject({ code: discountCodeTextSchema });

const instantSchema = z
  .string({ message: 'Give a date and time' })
  .check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'Not a valid date and time'));

/** What a code takes off and when, whoever sells: the code itself and what it is for are added per seller. */
const discountTermsShape = {
  kind: z.enum(['percent', 'amount'], { message: "The kind is 'percent' or 'amount'" }),
  /** A whole percentage 1-100, or an amount in cents of the seller's currency. */
  value: z
    .number({ message: 'Give the value as a whole number' })
    .check(
      z.int('Give the value as a whole number'),
      z.minimum(1, 'The value must be at least 1'),
      z.maximum(MAX_PRICE_MINOR, 'The value is too large'),
    ),
  startsAt: z.optional(z.nullable(instantSchema)),
  endsAt: z.optional(z.nullable(instantSchema)),
  maxUses: z.optional(
    z.nullable(
      z
        .number({ message: 'Give the number of uses as a whole number' })
        .check(
          z.int('Give the number of uses as a whole number'),
          z.minimum(1, 'A code needs at least 1 use'),
          z.maximum(MAX_DISCOUNT_USES, `At most ${MAX_DISCOUNT_USES} uses`),
        ),
    ),
  ),
  oncePerCustomer: z._default(z.boolean(), false),
  /** For subscriptions: off the first charge only, or off every charge. */
  appliesTo: z._default(z.enum(['first', 'every']), 'first'),
};

type TermsInput = { kind: 'percent' | 'amount'; value: number; startsAt?: string | null; endsAt?: string | null };
const percentAtMost100 = z.refine<TermsInput>((body) => body.kind !== 'percent' || body.value <= 100, {
  message: 'A percentage is at most 100',
  path: ['value'],
});
const endAfterStart = z.refine<TermsInput>(
  (body) => !body.startsAt || !body.endsAt || Date.parse(body.startsAt) < Date.parse(body.endsAt),
  { message: 'The end must be after the start', path: ['endsAt'] },
);

export const createDiscountCodeBodySchema = z
  .strictObject({
    code: discountCodeTextSchema,
    ...discountTermsShape,
    scope: z._default(
      z.union([
        z.strictObject({ kind: z.literal('shop') }),
        z.strictObject({
          kind: z.literal('products'),
          ids: z
            .array(productStockIdSchema)
            .check(z.minLength(1, 'Choose at least one product'), z.maxLength(MAX_DISCOUNT_SCOPE_IDS)),
        }),
        z.strictObject({
          kind: z.literal('grades'),
          ids: z
            .array(productStockGradeIdSchema)
            .check(z.minLength(1, 'Choose at least one grade'), z.maxLength(MAX_DISCOUNT_SCOPE_IDS)),
        }),
      ]),
      { kind: 'shop' as const },
    ),
  })
  .check(percentAtMost100, endAfterStart);
export type CreateDiscountCodeBody = z.infer<typeof createDiscountCodeBodySchema>;

/** A Pro plan code, made by a superuser: for the whole plan (both prices), in the plan's currency. */
export const createProDiscountCodeBodySchema = z
  .strictObject({ code: discountCodeTextSchema, ...discountTermsShape })
  .check(percentAtMost100, endAfterStart);
export type CreateProDiscountCodeBody = z.infer<typeof createProDiscountCodeBodySchema>;

/** What a code takes off and when, as either seller's body gives it. */
export type DiscountCodeTerms = Omit<CreateProDiscountCodeBody, 'code'>;

export const discountCodeSchema = z.strictObject({
  code: z.string(),
  kind: z.enum(['percent', 'amount']),
  value: z.int(),
  currency: z.string(),
  scope: z.strictObject({ kind: z.enum(['shop', 'products', 'grades']), ids: z.array(z.string()) }),
  startsAt: z.nullable(z.string()),
  endsAt: z.nullable(z.string()),
  maxUses: z.nullable(z.int()),
  usesCount: z.int(),
  oncePerCustomer: z.boolean(),
  appliesTo: z.enum(['first', 'every']),
  active: z.boolean(),
  createdAt: z.string(),
});
export type DiscountCodeView = z.infer<typeof discountCodeSchema>;

export const discountCodeListSchema = z.strictObject({ items: z.array(discountCodeSchema) });

/** The code on a cart's invoice: what it takes off now (the one-time lines and first cycles). */
export { invoiceDiscountSchema } from './subscriptions';
