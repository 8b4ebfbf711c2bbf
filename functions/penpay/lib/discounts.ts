/**
 * A shop's discount codes: the merchant's side (create, list, deactivate) and pricing a cart's
 * invoice with one. The server alone prices: the browser only names the code. A use is counted
 * when the invoice is paid, not here (store-discount-claims.ts): pricing checks the code as it is
 * now, and the payment checks it again in the write that counts the use.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { CreateDiscountCodeBody, DiscountCodeView } from '../../../shared/schemas/discounts';
import type { DiscountCodeItem } from '../../lib/db/entities/discount-code';
import { customerHolder } from '../../lib/db/entities/discount-use';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { BadRequest, HttpError, NotFound } from '../../lib/errors';
import type { InvoiceLine } from '../../lib/payments/invoices';
import { readGrade, readProduct } from './catalog';

/** The least a discounted line still costs: a card charge below it is refused by processors. */
export const MIN_DISCOUNTED_LINE_MINOR = 50;

export const codeKeyOf = (code: string) => code.trim().toLowerCase();

export class DiscountCodeNotFound extends NotFound {
  constructor() {
    super('No such discount code in your shop.');
  }
}

/** A code the customer cannot use now, and why (400: the code, not the cart, is the problem). */
export class DiscountCodeRefused extends HttpError {
  constructor(message: string) {
    super(400, 'DISCOUNT_CODE_REFUSED', message);
  }
}

/** A code whose uses are all taken, or that this customer used already (409: it was valid a moment ago). */
export class DiscountCodeUsedUp extends HttpError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(409, 'DISCOUNT_CODE_USED_UP', message, details);
  }
}

// ---------------------------------------------------------------------------------------------
// The merchant's codes

export function toDiscountCodeView(code: DiscountCodeItem): DiscountCodeView {
  return {
    code: code.code,
    kind: code.kind,
    value: code.value,
    currency: code.currency,
    scope: { kind: code.scope, ids: code.scopeIds ?? [] },
    startsAt: code.startsAt ?? null,
    endsAt: code.endsAt ?? null,
    maxUses: code.maxUses ?? null,
    usesCount: code.usesCount,
    oncePerCustomer: code.oncePerCustomer,
    appliesTo: code.appliesTo,
    active: code.active,
    createdAt: code.createdAt,
  };
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
  if (body.endsAt && Date.parse(body.endsAt) <= now.getTime())
    throw new BadRequest('The end of a new code must be in the future.');
  const item: DiscountCodeItem = {
    merchantAccountId: merchant.merchantAccountId,
    codeKey: codeKeyOf(body.code),
    code: body.code.trim(),
    kind: body.kind,
    value: body.value,
    scope: body.scope.kind,
    ...(scopeIds.length > 0 ? { scopeIds } : {}),
    currency: merchant.currency,
    ...(body.startsAt ? { startsAt: new Date(body.startsAt).toISOString() } : {}),
    ...(body.endsAt ? { endsAt: new Date(body.endsAt).toISOString() } : {}),
    ...(body.maxUses ? { maxUses: body.maxUses } : {}),
    usesCount: 0,
    oncePerCustomer: body.oncePerCustomer,
    appliesTo: body.appliesTo,
    active: true,
    createdAt: now.toISOString(),
  };
  try {
    await db.entities.discountCode.create(item).go();
  } catch (error) {
    if (isConditionalCheckFailed(error)) {
      throw new HttpError(409, 'CONFLICT', `Your shop has a code ${item.code} already (codes do not depend on case).`);
    }
    throw error;
  }
  return item;
}

export async function listDiscountCodes(db: Db, merchantAccountId: string): Promise<DiscountCodeItem[]> {
  const { data } = await db.entities.discountCode.query.byShopCode({ merchantAccountId }).go({ pages: 'all' });
  return data.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.codeKey.localeCompare(b.codeKey));
}

/** Stops a code of the merchant's own shop from being used again; uses already paid stay. Another shop's code is not found. */
export async function deactivateDiscountCode(db: Db, merchantAccountId: string, code: string): Promise<DiscountCodeItem> {
  try {
    const { data } = await db.entities.discountCode
      .patch({ merchantAccountId, codeKey: codeKeyOf(code) })
      .set({ active: false })
      .go({ response: 'all_new' });
    return data as DiscountCodeItem;
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new DiscountCodeNotFound();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Pricing an invoice with a code

const dayOf = (iso: string) => iso.slice(0, 10);

/** Why the code cannot be used now by this customer, or null. Checked when pricing and again when paying. */
export function refusalOf(code: DiscountCodeItem, now: Date): HttpError | null {
  if (code.startsAt && Date.parse(code.startsAt) > now.getTime()) {
    return new DiscountCodeRefused(`The code ${code.code} is not valid yet: it starts on ${dayOf(code.startsAt)}.`);
  }
  if (code.endsAt && Date.parse(code.endsAt) <= now.getTime()) {
    return new DiscountCodeRefused(`The code ${code.code} has expired: it ended on ${dayOf(code.endsAt)}.`);
  }
  if (code.maxUses !== undefined && code.usesCount >= code.maxUses) {
    return new DiscountCodeUsedUp(`The code ${code.code} has been used up: it had ${code.maxUses} uses.`);
  }
  return null;
}

const unknownCode = (text: string) =>
  new DiscountCodeRefused(`There is no discount code ${text.trim()} at this shop: check how it is spelt.`);

const isForLine = (code: DiscountCodeItem, line: InvoiceLine) =>
  code.scope === 'shop' ||
  (code.scope === 'products' && (code.scopeIds ?? []).includes(line.productId)) ||
  (code.scope === 'grades' && (code.scopeIds ?? []).includes(line.priceId));

/**
 * What the code takes off each line (all its units), in line order. A percentage is rounded to
 * the cent on each line; an amount is taken off the lines it is for in order, as far as it goes.
 * A line keeps MIN_DISCOUNTED_LINE_MINOR at least.
 */
export function lineDiscounts(
  code: Pick<DiscountCodeItem, 'kind' | 'value' | 'scope' | 'scopeIds'>,
  lines: readonly InvoiceLine[],
): number[] {
  let left = code.kind === 'amount' ? code.value : 0;
  return lines.map((line) => {
    if (!isForLine(code as DiscountCodeItem, line)) return 0;
    const lineTotal = line.amountMinor * line.quantity;
    const most = Math.max(0, lineTotal - MIN_DISCOUNTED_LINE_MINOR);
    if (code.kind === 'percent') return Math.min(most, Math.round((lineTotal * code.value) / 100));
    const taken = Math.min(most, left);
    left -= taken;
    return taken;
  });
}

/**
 * The cart's lines priced with the code the customer typed, and what the invoice keeps of it; or
 * the reason it is refused: unknown (another shop's code reads as unknown), not valid yet, expired,
 * used up, not for these items, or used by this customer already.
 */
export async function priceWithCode<Line extends InvoiceLine>(
  db: Db,
  request: { merchant: MerchantAccountItem; customerId: string; code: string; lines: Line[]; now: Date },
): Promise<{ lines: (Line & { discountMinor: number })[]; discount: NonNullable<InvoiceItem['discount']> }> {
  const { merchant, customerId, lines } = request;
  const codeKey = codeKeyOf(request.code);
  const { data: code } = await db.entities.discountCode
    .get({ merchantAccountId: merchant.merchantAccountId, codeKey })
    .go({ consistent: true });
  if (!code || !code.active) throw unknownCode(request.code);
  const refusal = refusalOf(code, request.now);
  if (refusal) throw refusal;
  const discounts = lineDiscounts(code, lines);
  if (discounts.every((amount) => amount === 0)) {
    throw new DiscountCodeRefused(`The code ${code.code} is not for the items in your cart.`);
  }
  if (code.oncePerCustomer) {
    const { data: used } = await db.entities.discountUse
      .get({ merchantAccountId: merchant.merchantAccountId, codeKey, holder: customerHolder(customerId) })
      .go({ consistent: true });
    if (used) throw new DiscountCodeUsedUp(`You have used the code ${code.code} already: it is once per customer.`);
  }
  return {
    lines: lines.map((line, index) => ({ ...line, discountMinor: discounts[index] ?? 0 })),
    discount: { codeKey, code: code.code, appliesTo: code.appliesTo, oncePerCustomer: code.oncePerCustomer },
  };
}

/** The invoice's saving now: what its lines' discounts take off this payment. */
export const savingOf = (invoice: Pick<InvoiceItem, 'lines'>) =>
  invoice.lines.reduce((sum, line) => sum + (line.discountMinor ?? 0), 0);

export const withoutCodeTotal = (invoice: Pick<InvoiceItem, 'lines' | 'currency'>) =>
  formatMoney({
    amountMinor: invoice.lines.reduce((sum, line) => sum + line.amountMinor * line.quantity, 0),
    currency: invoice.currency,
  });
