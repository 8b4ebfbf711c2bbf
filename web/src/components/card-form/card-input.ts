/**
 * How the local card form's fields read as a person types, by Braintree's own card rules
 * (card-validator, the library behind its Hosted Fields): the brand from the first digits, the
 * number in that brand's groups (4-4-4-4; American Express 4-6-5), its security code's length,
 * and the expiry as MM/YY. Pure functions, so the form stays a form: the gateway still decides
 * whether the card is good.
 */
import cardValidator from 'card-validator';

/** What the form needs of a card brand: its groups, lengths and security code. */
export interface CardBrand {
  name: string;
  /** Where a space goes: after 4, 8 and 12 digits on most cards, after 4 and 10 on American Express. */
  gaps: readonly number[];
  lengths: readonly number[];
  securityCode: { name: string; size: number };
}

/** Before the brand is known: groups of four, up to the 19 digits a card number may have. */
const UNKNOWN_GAPS = [4, 8, 12, 16] as const;
const MAX_DIGITS = 19;

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** The brand the number's first digits name, or null while they could still be several (or none). */
export function cardBrandOf(number: string): CardBrand | null {
  const card = cardValidator.number(digitsOf(number)).card;
  if (!card) return null;
  return { name: card.niceType, gaps: card.gaps, lengths: card.lengths, securityCode: card.code };
}

/** "4111111111111111" → "4111 1111 1111 1111"; "378282246310005" → "3782 822463 10005"; cut at the brand's longest number. */
export function formatCardNumber(value: string): string {
  const brand = cardBrandOf(value);
  const gaps = brand?.gaps ?? UNKNOWN_GAPS;
  const digits = digitsOf(value).slice(0, brand ? Math.max(...brand.lengths) : MAX_DIGITS);
  let grouped = '';
  for (const [index, digit] of [...digits].entries()) {
    grouped += (gaps.includes(index) ? ' ' : '') + digit;
  }
  return grouped;
}

/** The security code's length for the number typed: 4 on American Express, 3 on the others (4 while unknown). */
export function securityCodeSize(number: string): number {
  return cardBrandOf(number)?.securityCode.size ?? 4;
}

/** The security code as typed: digits only, no longer than the brand's. */
export function formatSecurityCode(value: string, number: string): string {
  return digitsOf(value).slice(0, securityCodeSize(number));
}

/**
 * The expiry as MM/YY (or MM/YYYY), whatever was typed: "1228" → "12/28", "122028" →
 * "12/2028", "4" → "04", "1/28" → "01/28"; "12/2028" stays. The slash comes only after a year
 * digit, so deleting back through it never puts it back.
 */
export function formatExpiry(value: string): string {
  const kept = value.replace(/[^\d/]/g, '');
  const slash = kept.indexOf('/');
  if (slash >= 0) {
    const month = kept.slice(0, slash).slice(0, 2);
    const year = digitsOf(kept.slice(slash + 1)).slice(0, 4);
    return `${month.length === 1 ? `0${month}` : month}/${year}`;
  }
  const digits = kept.slice(0, 6);
  // No month starts with 2 to 9 as its tens: "4" can only be April.
  const padded = /^[2-9]/.test(digits) ? `0${digits}`.slice(0, 6) : digits;
  return padded.length <= 2 ? padded : `${padded.slice(0, 2)}/${padded.slice(2)}`;
}

/** Whether the expiry is a whole, future MM/YY or MM/YYYY date, by card-validator's rules. */
export function isCompleteExpiry(value: string): boolean {
  return cardValidator.expirationDate(value).isValid;
}
