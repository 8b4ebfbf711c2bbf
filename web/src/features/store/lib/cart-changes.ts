import type { CartInvoice, StoreInvoiceView } from '../api/store-keys';
import { formatMoney } from './format';

/**
 * What changed between the invoice a customer tried to pay and the cart as it is now, in words,
 * after the API refused the payment (409): a price that moved, an item no longer sold, a new
 * total. Empty when nothing shown differs (the page then says so in general terms).
 */
export function describeCartChanges(before: StoreInvoiceView, after: CartInvoice): string[] {
  const changes: string[] = [];
  const afterLines = after.invoice?.lines ?? [];
  for (const line of before.lines) {
    const now = afterLines.find((candidate) => candidate.productStockGradeId === line.productStockGradeId);
    if (!now) {
      const item = after.items.find((candidate) => candidate.productStockGradeId === line.productStockGradeId);
      changes.push(
        item?.status === 'unavailable'
          ? `${line.description} is no longer sold: it will not be charged.`
          : `${line.description} is no longer in your cart.`,
      );
      continue;
    }
    if (now.unitPrice.amountMinor !== line.unitPrice.amountMinor || now.unitPrice.currency !== line.unitPrice.currency) {
      changes.push(`${line.description}: was ${formatMoney(line.unitPrice)}, now ${formatMoney(now.unitPrice)}.`);
    }
    if (now.quantity !== line.quantity) changes.push(`${line.description}: ${now.quantity} now, not ${line.quantity}.`);
  }
  for (const line of afterLines) {
    if (!before.lines.some((candidate) => candidate.productStockGradeId === line.productStockGradeId)) {
      changes.push(`${line.description} is now in your cart.`);
    }
  }
  if (!after.invoice) changes.push('Nothing in your cart can be bought now.');
  else if (after.invoice.total.amountMinor !== before.total.amountMinor) {
    changes.push(`The total is now ${formatMoney(after.invoice.total)}, not ${formatMoney(before.total)}.`);
  }
  return changes;
}
