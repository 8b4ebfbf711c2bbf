/**
 * A shop's discount codes: the merchant's side (create, list, deactivate) and pricing a cart's
 * invoice with one. The rules every seller's codes share (validity, pricing a line, storage, the
 * use counted as the invoice is paid) are functions/lib/payments/discount-codes.ts and
 * discount-claims.ts; what is a shop's own is here: codes for chosen products or grades, and how
 * a refusal names the shop.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { CreateDiscountCodeBody } from '../../../shared/schemas/discounts';
import type { DiscountCodeItem } from '../../lib/db/entities/discount-code';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { Db } from '../../lib/db/service';
import { BadRequest, HttpError, NotFound } from '../../lib/errors';
import {
  DiscountCodeRefused,
  deactivateDiscountCode as deactivateSellerCode,
  invoiceDiscountOf,
  lineDiscounts,
  readUsableCode,
  saveNewDiscountCode,
} from '../../lib/payments/discount-codes';
import type { InvoiceLine } from '../../lib/payments/invoices';
import { readGrade, readProduct } from './catalog';

export {
  codeKeyOf,
  DiscountCodeRefused,
  DiscountCodeUsedUp,
  listDiscountCodes,
  MIN_DISCOUNTED_LINE_MINOR,
  refusalOf,
  savingOf,
  toDiscountCodeView,
} from '../../lib/payments/discount-codes';

export class DiscountCodeNotFound extends NotFound {
  constructor() {
    super('No such discount code in your shop.');
  }
}

/**
 * A new code for the merchant's shop. The products or grades it is for must be the shop's own:
 * another shop's id reads as an unknown one. Unique per shop whatever the case: a conditional
 * create, so two merchants' tabs creating one code at once make one.
 */
export async function createDiscountCode(
  db: Db,
  merchant: MerchantAccountItem,
  body: CreateDiscountCodeBody,
  now: Date,
): Promise<DiscountCodeItem> {
  const scopeIds = body.scope.kind === 'shop' ? [] : [...new Set(body.scope.ids)];
  if (body.scope.kind !== 'shop') {
    const read = body.scope.kind === 'products' ? readProduct : readGrade;
    const found = await Promise.all(scopeIds.map((id) => read(db, id, true)));
    const unknown = scopeIds.filter((_, index) => found[index]?.merchantAccountId !== merchant.merchantAccountId);
    if (unknown.length > 0) {
      const what = body.scope.kind === 'products' ? 'product' : 'grade';
      throw new BadRequest(`No such ${what} in your shop: ${unknown.join(', ')}.`);
    }
  }
  const { scope, ...terms } = body;
  return saveNewDiscountCode(db, {
    sellerId: merchant.merchantAccountId,
    currency: merchant.currency,
    terms,
    scope: scope.kind,
    scopeIds,
    now,
    taken: (code) => new HttpError(409, 'CONFLICT', `Your shop has a code ${code} already (codes do not depend on case).`),
  });
}

/** Stops a code of the merchant's own shop from being used again; uses already paid stay. Another shop's code is not found. */
export const deactivateDiscountCode = (db: Db, merchantAccountId: string, code: string) =>
  deactivateSellerCode(db, merchantAccountId, code, () => new DiscountCodeNotFound());

// ---------------------------------------------------------------------------------------------
// Pricing an invoice with a code

const unknownCode = (text: string) =>
  new DiscountCodeRefused(`There is no discount code ${text} at this shop: check how it is spelt.`);

const isForLine = (code: Pick<DiscountCodeItem, 'scope' | 'scopeIds'>) => (line: InvoiceLine) =>
  code.scope === 'shop' ||
  (code.scope === 'products' && (code.scopeIds ?? []).includes(line.productId)) ||
  (code.scope === 'grades' && (code.scopeIds ?? []).includes(line.priceId));

/**
 * The cart's lines priced with the code the customer typed, and what the invoice keeps of it; or
 * the reason it is refused: unknown (another shop's code reads as unknown), not valid yet, expired,
 * used up, not for these items, or used by this customer already.
 */
export async function priceWithCode<Line extends InvoiceLine>(
  db: Db,
  request: { merchant: MerchantAccountItem; customerId: string; code: string; lines: Line[]; now: Date },
): Promise<{ lines: (Line & { discountMinor: number })[]; discount: NonNullable<InvoiceItem['discount']> }> {
  const { merchant, lines } = request;
  const code = await readUsableCode(db, {
    sellerId: merchant.merchantAccountId,
    customerId: request.customerId,
    code: request.code,
    now: request.now,
    unknown: unknownCode,
  });
  const discounts = lineDiscounts(code, lines, isForLine(code));
  if (discounts.every((amount) => amount === 0)) {
    throw new DiscountCodeRefused(`The code ${code.code} is not for the items in your cart.`);
  }
  return {
    lines: lines.map((line, index) => ({ ...line, discountMinor: discounts[index] ?? 0 })),
    discount: invoiceDiscountOf(code),
  };
}

export const withoutCodeTotal = (invoice: Pick<InvoiceItem, 'lines' | 'currency'>) =>
  formatMoney({
    amountMinor: invoice.lines.reduce((sum, line) => sum + line.amountMinor * line.quantity, 0),
    currency: invoice.currency,
  });
