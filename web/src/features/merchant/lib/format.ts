import { formatMoney } from '@shared/payments/money';
import type { GradeView, Money, Visibility } from '../api/merchant-keys';

export { formatMoney };
export { formatDate } from '../../../lib/format-date';

/**
 * A figures day (YYYY-MM-DD, a UTC calendar day) as it is written, whatever the reader's time
 * zone: "24 Nov". Read as an instant it would show the day before west of UTC.
 */
export function formatShortDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** "every month", "every 3 months", "every year", "every 2 years". */
export function everyMonths(months: number): string {
  if (months === 1) return 'every month';
  if (months === 12) return 'every year';
  if (months % 12 === 0) return `every ${months / 12} years`;
  return `every ${months} months`;
}

/** What a grade costs and how often: "$10.00 every month", "$25.00 once". */
export function describePrice(price: Money, billing: GradeView['billing']): string {
  return billing.kind === 'subscription'
    ? `${formatMoney(price)} ${everyMonths(billing.billingFrequencyMonths)}`
    : `${formatMoney(price)} once`;
}

let currencyNames: Intl.DisplayNames | null | undefined;

/** "USD · US Dollar"; the code alone where the browser has no names. */
export function currencyLabel(currency: string): string {
  if (currencyNames === undefined) {
    try {
      currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
    } catch {
      currencyNames = null;
    }
  }
  const name = currencyNames?.of(currency);
  return name && name !== currency ? `${currency} · ${name}` : currency;
}

export const VISIBILITY_NAMES: Readonly<Record<Visibility, string>> = {
  public: 'Public',
  unlisted: 'Unlisted',
  private: 'Private',
};

/** What each visibility means for a product, in one line each. */
export const PRODUCT_VISIBILITY_HINTS: Readonly<Record<Visibility, string>> = {
  public: 'Listed in your shop and sold to anyone.',
  unlisted: 'Sold to anyone with its link, but not listed in your shop.',
  private: 'A draft: only you can see it, and nobody can buy it.',
};

/** What each visibility means for a grade, in one line each. */
export const GRADE_VISIBILITY_HINTS: Readonly<Record<Visibility, string>> = {
  public: 'Shown on the product’s page and sold to anyone.',
  unlisted: 'Sold to anyone with its link, but not shown on the product’s page.',
  private: 'A draft: only you can see it, and nobody can buy it.',
};

/**
 * Whether a product or grade is on sale, in words: a product put on sale with no grade on sale
 * has nothing to buy, so it is "not on sale yet", with the step that puts it on sale.
 */
export function saleWords(item: {
  stocked: boolean;
  hasGradeOnSale?: boolean | undefined;
  gradeCount?: number | undefined;
}): string {
  if (!item.stocked) return 'Not on sale';
  if (item.hasGradeOnSale === false)
    return item.gradeCount ? 'Not on sale yet: put a grade on sale' : 'Not on sale yet: add a grade';
  return 'On sale';
}

/** A product or grade's state in words, never only in a colour: "Public · On sale". */
export function stateWords(item: {
  visibility: Visibility;
  stocked: boolean;
  hasGradeOnSale?: boolean | undefined;
  gradeCount?: number | undefined;
}): string {
  return `${VISIBILITY_NAMES[item.visibility]} · ${saleWords(item)}`;
}

export const ENVIRONMENT_NAMES = {
  local: 'Local test account',
  sandbox: 'Braintree sandbox',
  production: 'Braintree production',
} as const;
