/**
 * Counting a discount code's use exactly once, as its invoice is paid, for every seller (a shop's
 * codes, and the Pro plan's under the platform's seller id). The use is claimed after the
 * invoice's own claim (invoices.ts) and before any gateway call, in one transaction:
 * the invoice's use item (created on condition it is not there), the code's usesCount (ADD 1 on
 * condition it is active and under maxUses) and, for a once-per-customer code, the customer's
 * use item (a conditional create). However many customers pay at once, a code with N uses is
 * claimed N times: the others are refused before anything is charged and told the price without
 * the code. A payment that then takes no money (a declined card, a request the gateway refused
 * with validation errors such as a missing Control Panel discount, a failure before the gateway
 * was called) gives the use back, once (the use item's conditional delete), on condition its
 * claim is still the invoice's latest; one whose outcome is in doubt (a timeout, a 5xx) keeps it,
 * so a resumed payment (which finds the invoice's use item and counts nothing more) is never
 * discounted without its use counted.
 */
import { formatMoney } from '../../../shared/payments/money';
import { type LostRace, lostRace, retryContendedWrite } from '../contended-writes';
import { customerHolder, invoiceHolder } from '../db/entities/discount-use';
import type { InvoiceItem } from '../db/entities/invoice';
import type { Db } from '../db/service';
import type { HttpError } from '../errors';
import { logger } from '../logger';
import { DiscountCodeRefused, DiscountCodeUsedUp, refusalOf } from './discount-codes';
import type { InvoiceClaim } from './invoices';

const fullPriceOf = (invoice: InvoiceItem) =>
  formatMoney({
    amountMinor: invoice.lines.reduce((sum, line) => sum + line.amountMinor * line.quantity, 0),
    currency: invoice.currency,
  });

/** Why the payment stops, the customer told the price without the code: nothing was charged. */
function refusedAtPayment(invoice: InvoiceItem, reason: 'used-up' | 'used-by-you' | 'ended', code: string): HttpError {
  const withoutCode = fullPriceOf(invoice);
  const details = { reason, priceWithoutCode: withoutCode };
  if (reason === 'used-up') {
    return new DiscountCodeUsedUp(
      `This code has just been used up: the price without it is ${withoutCode}. Nothing was charged: remove the code to pay that price.`,
      details,
    );
  }
  if (reason === 'used-by-you') {
    return new DiscountCodeUsedUp(
      `You have used the code ${code} already: it is once per customer, so the price is ${withoutCode}. Nothing was charged.`,
      details,
    );
  }
  return new DiscountCodeRefused(
    `The code ${code} cannot be used any more: the price without it is ${withoutCode}. Nothing was charged: remove the code to pay that price.`,
  );
}

/**
 * Claims the invoice's use of its code; true when this call counted it (false: no code, or an
 * earlier attempt at the invoice counted it already). Throws, with nothing charged, when the code
 * cannot be used any more.
 */
export async function claimDiscountUse(db: Db, claim: InvoiceClaim, now: Date): Promise<boolean> {
  const { invoice } = claim;
  const discount = invoice.discount;
  if (!discount) return false;
  const codeKey = { merchantAccountId: invoice.sellerId, codeKey: discount.codeKey };
  const invoiceUse = { ...codeKey, holder: invoiceHolder(invoice.invoiceId) };
  const customerUse = { ...codeKey, holder: customerHolder(invoice.customerId) };
  const ours = async () => (await db.entities.discountUse.get(invoiceUse).go({ consistent: true })).data !== null;
  if (await ours()) return false;
  const at = now.toISOString();
  return retryContendedWrite({ what: 'using this discount code' }, async (): Promise<boolean | LostRace> => {
    const { data: code } = await db.entities.discountCode.get(codeKey).go({ consistent: true });
    if (!code || !code.active) throw refusedAtPayment(invoice, 'ended', discount.code);
    if (code.maxUses !== undefined && code.usesCount >= code.maxUses) throw refusedAtPayment(invoice, 'used-up', discount.code);
    if (refusalOf(code, now)) throw refusedAtPayment(invoice, 'ended', discount.code);
    const maxUses = code.maxUses;
    const use = { invoiceId: invoice.invoiceId, customerId: invoice.customerId, createdAt: at };
    const result = await db.transaction
      .write(({ discountUse, discountCode }) => [
        discountUse.create({ ...invoiceUse, ...use }).commit(),
        discountCode
          .update(codeKey)
          .add({ usesCount: 1 })
          .where((attributes, { eq, lt }) =>
            maxUses === undefined
              ? eq(attributes.active, true)
              : `${eq(attributes.active, true)} AND ${lt(attributes.usesCount, maxUses)}`,
          )
          .commit(),
        ...(code.oncePerCustomer ? [discountUse.create({ ...customerUse, ...use }).commit()] : []),
      ])
      .go();
    if (!result.canceled) return true;
    // Why it was cancelled, from what is there now: ours after all, taken by this customer, or a race to try again.
    if (await ours()) return false;
    if (code.oncePerCustomer) {
      const { data: used } = await db.entities.discountUse.get(customerUse).go({ consistent: true });
      if (used && used.invoiceId !== invoice.invoiceId) throw refusedAtPayment(invoice, 'used-by-you', discount.code);
    }
    return lostRace(result);
  });
}

/**
 * Gives back a use this attempt claimed, when its payment took no money; only while its claim is
 * the invoice's latest (a later attempt may be paying with it). Never throws: a use not given
 * back is a use too many counted, never a discount given twice.
 */
export async function releaseDiscountUse(db: Db, claim: InvoiceClaim): Promise<void> {
  const { invoice } = claim;
  const discount = invoice.discount;
  if (!discount) return;
  const codeKey = { merchantAccountId: invoice.sellerId, codeKey: discount.codeKey };
  try {
    const result = await db.transaction
      .write(({ invoice: invoices, discountUse, discountCode }) => [
        invoices
          .check({ invoiceId: invoice.invoiceId })
          .where((attributes, { eq }) => eq(attributes.attempt, claim.attempt))
          .commit(),
        discountUse
          .delete({ ...codeKey, holder: invoiceHolder(invoice.invoiceId) })
          .where((attributes, { eq }) => eq(attributes.invoiceId, invoice.invoiceId))
          .commit(),
        discountCode.update(codeKey).add({ usesCount: -1 }).commit(),
        ...(discount.oncePerCustomer
          ? [
              discountUse
                .delete({ ...codeKey, holder: customerHolder(invoice.customerId) })
                .where((attributes, { eq }) => eq(attributes.invoiceId, invoice.invoiceId))
                .commit(),
            ]
          : []),
      ])
      .go();
    if (result.canceled) logger.warn('A discount use was kept: its invoice moved on', { invoiceId: invoice.invoiceId });
  } catch (error) {
    logger.error('A discount use could not be given back', {
      invoiceId: invoice.invoiceId,
      errorName: (error as Error).name,
    });
  }
}
