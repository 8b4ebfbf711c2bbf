/**
 * Money, as the product keeps it: whole minor units (cents) and a currency, never a float. The
 * payment gateway takes and answers decimal strings ("9.00"); these convert at that border only.
 */
export interface Money {
  /** Whole minor units: 1200 is 12.00. */
  readonly amountMinor: number;
  /** ISO 4217, upper case. */
  readonly currency: string;
}

/** Cents to the gateway's decimal string: 1200 → "12.00". */
export function toDecimalAmount(amountMinor: number): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`Not an amount in minor units: ${amountMinor}`);
  const whole = Math.floor(amountMinor / 100);
  const cents = amountMinor % 100;
  return `${whole}.${String(cents).padStart(2, '0')}`;
}

/** The gateway's decimal string to cents: "12.00" → 1200. Refuses anything that is not a plain two-place amount. */
export function fromDecimalAmount(amount: string): number {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new RangeError(`Not a decimal amount: '${amount}'`);
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** How a price reads to a person: "$12.00", "€9.50". */
export function formatMoney({ amountMinor, currency }: Money, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amountMinor / 100);
}
