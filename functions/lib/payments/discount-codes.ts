/**
 * Discount codes as every seller uses them: a shop's codes (functions/penpay) and the Pro plan's
 * (functions/subscriptions, under the platform's seller id). What differs per seller (who may
 * make a code, what it is for, how a refusal reads) stays with the app; the code's rules, its
 * pricing of lines and its storage are here. The server alone prices: the browser only names the
 * code. A use is counted when the invoice is paid (discount-claims.ts), not when it is priced.
 */
import type { DiscountCodeView, DiscountCodeTerms } from '../../../shared/schemas/discounts';
import type { DiscountCodeItem } from '../db/entities/discount-code';
import { customerHolder } from '../db/entities/discount-use';
import type { InvoiceItem } from '../db/entities/invoice';
import { isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import { BadRequest, HttpError } from '../errors';
import type { GatewayDiscount } from './gateway';
import type { InvoiceLine } from './invoices';
import { toDecimalAmount } from '../../../shared/payments/money';

/** The least a discounted line still costs: a card charge below it is refused by processors. */
export const MIN_DISCOUNTED_LINE_MINOR = 50;

export const codeKeyOf = (code: string) => code.trim().toLowerCase();

/** A code the customer cannot use now, and why (400: the code, not what is bought, is the problem). */
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
 * Stores a new code of the seller's: unique per seller whatever the case, by a conditional create,
 * so two tabs creating one code at once make one (`taken` says so to the other).
 */
export async function saveNewDiscountCode(
  db: Db,
  request: {
    sellerId: string;
    currency: string;
    terms: DiscountCodeTerms & { code: string };
    scope: DiscountCodeItem['scope'];
    scopeIds: string[];
    now: Date;
    taken: (code: string) => HttpError;
  },
): Promise<DiscountCodeItem> {
  const { terms, now } = request;
  if (terms.endsAt && Date.parse(terms.endsAt) <= now.getTime())
    throw new BadRequest('The end of a new code must be in the future.');
  const item: DiscountCodeItem = {
    merchantAccountId: request.sellerId,
    codeKey: codeKeyOf(terms.code),
    code: terms.code.trim(),
    kind: terms.kind,
    value: terms.value,
    scope: request.scope,
    ...(request.scopeIds.length > 0 ? { scopeIds: request.scopeIds } : {}),
    currency: request.currency,
    ...(terms.startsAt ? { startsAt: new Date(terms.startsAt).toISOString() } : {}),
    ...(terms.endsAt ? { endsAt: new Date(terms.endsAt).toISOString() } : {}),
    ...(terms.maxUses ? { maxUses: terms.maxUses } : {}),
    usesCount: 0,
    oncePerCustomer: terms.oncePerCustomer,
    appliesTo: terms.appliesTo,
    active: true,
    createdAt: now.toISOString(),
  };
  try {
    await db.entities.discountCode.create(item).go();
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw request.taken(item.code);
    throw error;
  }
  return item;
}

/** The seller's codes, newest first. */
export async function listDiscountCodes(db: Db, sellerId: string): Promise<DiscountCodeItem[]> {
  const { data } = await db.entities.discountCode.query.byShopCode({ merchantAccountId: sellerId }).go({ pages: 'all' });
  return data.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.codeKey.localeCompare(b.codeKey));
}

/**
 * Stops one of the seller's codes from being used again; uses already paid stay. Only the seller's
 * own partition is reached: another seller's code is `notFound`.
 */
export async function deactivateDiscountCode(
  db: Db,
  sellerId: string,
  code: string,
  notFound: () => HttpError,
): Promise<DiscountCodeItem> {
  try {
    const { data } = await db.entities.discountCode
      .patch({ merchantAccountId: sellerId, codeKey: codeKeyOf(code) })
      .set({ active: false })
      .go({ response: 'all_new' });
    return data as DiscountCodeItem;
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw notFound();
    throw error;
  }
}

const dayOf = (iso: string) => iso.slice(0, 10);

/** Why the code cannot be used now, or null. Checked when pricing and again when paying. */
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

/**
 * The seller's code the customer typed, if they may use it now: `unknown` for a code the seller
 * does not have (another seller's reads the same) or has deactivated; otherwise the reason it is
 * refused (not valid yet, expired, used up, used by this customer already).
 */
export async function readUsableCode(
  db: Db,
  request: { sellerId: string; customerId: string; code: string; now: Date; unknown: (typed: string) => HttpError },
): Promise<DiscountCodeItem> {
  const key = { merchantAccountId: request.sellerId, codeKey: codeKeyOf(request.code) };
  const { data: code } = await db.entities.discountCode.get(key).go({ consistent: true });
  if (!code || !code.active) throw request.unknown(request.code.trim());
  const refusal = refusalOf(code, request.now);
  if (refusal) throw refusal;
  if (code.oncePerCustomer) {
    const { data: used } = await db.entities.discountUse
      .get({ ...key, holder: customerHolder(request.customerId) })
      .go({ consistent: true });
    if (used) throw new DiscountCodeUsedUp(`You have used the code ${code.code} already: it is once per customer.`);
  }
  return code;
}

/** What an invoice priced with the code keeps of it. */
export const invoiceDiscountOf = (code: DiscountCodeItem): NonNullable<InvoiceItem['discount']> => ({
  codeKey: code.codeKey,
  code: code.code,
  appliesTo: code.appliesTo,
  oncePerCustomer: code.oncePerCustomer,
});

/**
 * What the code takes off each line (all its units), in line order, for the lines `isFor` says
 * it is for (all by default). A percentage is rounded to the cent on each line; an amount is taken
 * off the lines it is for in order, as far as it goes. A line keeps MIN_DISCOUNTED_LINE_MINOR at least.
 */
export function lineDiscounts(
  code: Pick<DiscountCodeItem, 'kind' | 'value'>,
  lines: readonly InvoiceLine[],
  isFor: (line: InvoiceLine) => boolean = () => true,
): number[] {
  let left = code.kind === 'amount' ? code.value : 0;
  return lines.map((line) => {
    if (!isFor(line)) return 0;
    const lineTotal = line.amountMinor * line.quantity;
    const most = Math.max(0, lineTotal - MIN_DISCOUNTED_LINE_MINOR);
    if (code.kind === 'percent') return Math.min(most, Math.round((lineTotal * code.value) / 100));
    const taken = Math.min(most, left);
    left -= taken;
    return taken;
  });
}

/** The invoice's saving now: what its lines' discounts take off this payment. */
export const savingOf = (invoice: Pick<InvoiceItem, 'lines'>) =>
  invoice.lines.reduce((sum, line) => sum + (line.discountMinor ?? 0), 0);

/**
 * A subscription line's discount as Braintree takes it: inherited from the seller's Control Panel
 * discount `inheritedFromId`, at our amount, off the first cycle only or off every cycle, as the
 * invoice's code says. None when the line has no discount.
 */
export function subscriptionDiscountsOf(
  invoice: Pick<InvoiceItem, 'discount'>,
  line: Pick<InvoiceLine, 'discountMinor'>,
  inheritedFromId: string,
): GatewayDiscount[] {
  const amountMinor = line.discountMinor ?? 0;
  if (amountMinor <= 0 || !invoice.discount) return [];
  return [
    {
      id: inheritedFromId,
      amount: toDecimalAmount(amountMinor),
      numberOfBillingCycles: invoice.discount.appliesTo === 'first' ? 1 : null,
    },
  ];
}
