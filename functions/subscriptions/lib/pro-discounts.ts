/**
 * The Pro plan's discount codes: made, listed and deactivated by a superuser, and typed by a
 * signed-in person at checkout. Stored as every seller's codes are (the platform's seller id in
 * place of a shop's), with the rules they share (functions/lib/payments/discount-codes.ts); a Pro
 * code is for the whole plan (both prices), in the plan's currency.
 */
import { PRO_PRICES, type ProPriceId } from '../../../shared/transfers/pro-plan';
import type { CreateProDiscountCodeBody } from '../../../shared/schemas/discounts';
import type { DiscountCodeItem } from '../../lib/db/entities/discount-code';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { Db } from '../../lib/db/service';
import { HttpError, NotFound } from '../../lib/errors';
import {
  DiscountCodeRefused,
  deactivateDiscountCode,
  invoiceDiscountOf,
  lineDiscounts,
  listDiscountCodes,
  readUsableCode,
  saveNewDiscountCode,
} from '../../lib/payments/discount-codes';
import type { InvoiceLine } from '../../lib/payments/invoices';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';

/** Both prices are in one currency: an amount code is in it. */
export const PRO_CURRENCY = PRO_PRICES['pro-monthly'].currency;

export class ProDiscountCodeNotFound extends NotFound {
  constructor() {
    super('The Pro plan has no such discount code.');
  }
}

export function createProDiscountCode(db: Db, body: CreateProDiscountCodeBody, now: Date): Promise<DiscountCodeItem> {
  return saveNewDiscountCode(db, {
    sellerId: PLATFORM_SELLER_ID,
    currency: PRO_CURRENCY,
    terms: body,
    scope: 'shop',
    scopeIds: [],
    now,
    taken: (code) => new HttpError(409, 'CONFLICT', `The Pro plan has a code ${code} already (codes do not depend on case).`),
  });
}

export const listProDiscountCodes = (db: Db) => listDiscountCodes(db, PLATFORM_SELLER_ID);

export const deactivateProDiscountCode = (db: Db, code: string) =>
  deactivateDiscountCode(db, PLATFORM_SELLER_ID, code, () => new ProDiscountCodeNotFound());

const unknownCode = (text: string) =>
  new DiscountCodeRefused(`There is no Pro plan discount code ${text}: check how it is spelt.`);

/**
 * A Pro price's lines priced with the code the person typed, and what the invoice keeps of it;
 * or why it is refused (unknown or deactivated, not valid yet, expired, used up, or used by them
 * already when it is once per person). Nothing is counted here: a use is counted when it is paid.
 */
export async function priceProWithCode(
  db: Db,
  request: { customerId: string; code: string; priceId: ProPriceId; lines: InvoiceLine[]; now: Date },
): Promise<{ lines: InvoiceLine[]; discount: NonNullable<InvoiceItem['discount']> }> {
  const code = await readUsableCode(db, {
    sellerId: PLATFORM_SELLER_ID,
    customerId: request.customerId,
    code: request.code,
    now: request.now,
    unknown: unknownCode,
  });
  const discounts = lineDiscounts(code, request.lines);
  return {
    lines: request.lines.map((line, index) => ({ ...line, discountMinor: discounts[index] ?? 0 })),
    discount: invoiceDiscountOf(code),
  };
}
