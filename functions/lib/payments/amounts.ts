/**
 * Money as the gateway writes it ("9.00") and as we count it: whole cents in a safe integer, so
 * no amount is ever a float. Both adapters and the local gateway use these.
 */

const AMOUNT_PATTERN = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** Whole cents of a decimal amount ("9", "9.5", "9.00"); undefined when it is not one. */
export function parseCents(amount: string): number | undefined {
  const match = AMOUNT_PATTERN.exec(amount.trim());
  if (!match) return undefined;
  const [, whole = '0', fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/** Like parseCents, for an amount the gateway itself answered: a malformed one is its bug. */
export function centsOf(amount: string): number {
  const cents = parseCents(amount);
  if (cents === undefined) throw new Error(`'${amount}' is not a decimal amount`);
  return cents;
}

/** "9.00" for 900. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`${cents} is not a whole, non-negative number of cents`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The same amount with exactly two places, as the port promises ("9" becomes "9.00"). */
export function normalizeAmount(amount: string): string {
  return formatCents(centsOf(amount));
}
