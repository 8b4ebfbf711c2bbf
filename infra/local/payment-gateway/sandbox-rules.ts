import { processorResponseText } from '../../../functions/lib/payments/gateway-refusals';
import {
  LOCAL_EXTRA_TEST_NONCES,
  LOCAL_TEST_CARDS,
  LOCAL_TEST_NONCES,
  type LocalCardField,
  type LocalCardFields,
  type LocalCardOutcome,
  type LocalTestNonce,
} from '../../../shared/payments/local-gateway';
import { monthOf } from './dates';

/**
 * The rules Braintree's sandbox documents ("Testing" and "Testing and Go Live"), applied to the
 * local gateway's charges and cards: which amounts decline, which nonces and card numbers do
 * what, and how a card form checks its fields.
 */

export type ChargeOutcome =
  | { status: 'approved' }
  | { status: 'processor_declined'; code: string; text: string }
  | { status: 'failed'; code: string; text: string }
  | { status: 'gateway_rejected'; reason: string };

/**
 * What the sandbox answers for a charge of this many cents: 2000.00-2999.99 processor declined
 * with the whole part as the response code, 3000.00-3000.99 failed (3000), 5001.00 gateway
 * rejected (application incomplete), anything else approved. A card set to decline is declined
 * (2000 Do Not Honor) whatever the amount.
 */
export function chargeOutcome(amountCents: number, options: { declining: boolean }): ChargeOutcome {
  if (amountCents >= 200_000 && amountCents <= 299_999) {
    const code = String(Math.floor(amountCents / 100));
    return { status: 'processor_declined', code, text: processorResponseText(code) };
  }
  if (amountCents >= 300_000 && amountCents <= 300_099)
    return { status: 'failed', code: '3000', text: processorResponseText('3000') };
  if (amountCents === 500_100) return { status: 'gateway_rejected', reason: 'application_incomplete' };
  if (options.declining) return { status: 'processor_declined', code: '2000', text: processorResponseText('2000') };
  return { status: 'approved' };
}

const TEST_NONCES = new Map<string, LocalTestNonce>(
  [...LOCAL_TEST_NONCES, ...LOCAL_EXTRA_TEST_NONCES].map((entry) => [entry.nonce, entry]),
);

export function testNonce(nonce: string): LocalTestNonce | undefined {
  return TEST_NONCES.get(nonce);
}

/** A test card number's outcome; any other valid number is approved, as in the sandbox. */
export function cardOutcome(number: string): LocalCardOutcome {
  return LOCAL_TEST_CARDS.find((card) => card.number === number)?.outcome ?? 'approved';
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The card brand by its leading digits, with Braintree's names for them. */
export function cardTypeOf(digits: string): string {
  const prefix = (length: number) => Number(digits.slice(0, length));
  if (digits.startsWith('4')) return 'Visa';
  if (/^3[47]/.test(digits)) return 'American Express';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return 'MasterCard';
  if (digits.startsWith('6011') || digits.startsWith('65') || (prefix(3) >= 644 && prefix(3) <= 649)) return 'Discover';
  if (prefix(4) >= 3528 && prefix(4) <= 3589) return 'JCB';
  if (/^3(?:0[0-5]|[68])/.test(digits)) return 'Diners Club';
  if (digits.startsWith('62')) return 'UnionPay';
  if (/^(?:5[06-8]|6\d)/.test(digits)) return 'Maestro';
  return 'Unknown';
}

export interface CheckedCard {
  digits: string;
  cardType: string;
  /** "MM". */
  expirationMonth: string;
  /** "YYYY". */
  expirationYear: string;
}

export type CardCheck =
  { ok: true; card: CheckedCard } | { ok: false; fieldErrors: { field: LocalCardField; message: string }[] };

/**
 * The card form's fields checked as a card form checks them: the number's length and Luhn
 * digit, an expiry not before this month (by the gateway's clock), a CVV of the length the
 * brand prints (4 digits on American Express, 3 on the others), an optional postal code.
 */
export function checkCardFields(fields: LocalCardFields, today: string): CardCheck {
  const fieldErrors: { field: LocalCardField; message: string }[] = [];
  const digits = String(fields.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) fieldErrors.push({ field: 'number', message: 'Enter the card number: 12 to 19 digits.' });
  else if (!luhnValid(digits))
    fieldErrors.push({ field: 'number', message: 'This card number is not valid: check it for typos.' });
  const cardType = cardTypeOf(digits);

  let expirationMonth = '';
  let expirationYear = '';
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(String(fields.expirationDate ?? ''));
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12) {
    fieldErrors.push({ field: 'expirationDate', message: 'Enter the expiry date as MM/YY.' });
  } else {
    const rawYear = expiry[2] ?? '';
    const year = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
    const now = monthOf(today);
    if (year < now.year || (year === now.year && month < now.month)) {
      fieldErrors.push({ field: 'expirationDate', message: 'This card has expired.' });
    } else if (year > now.year + 20) {
      fieldErrors.push({ field: 'expirationDate', message: 'Enter the expiry date as MM/YY.' });
    }
    expirationMonth = String(month).padStart(2, '0');
    expirationYear = String(year);
  }

  const cvvLength = cardType === 'American Express' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(String(fields.cvv ?? ''))) {
    fieldErrors.push({
      field: 'cvv',
      message:
        cvvLength === 4
          ? 'Enter the 4-digit security code on the front of the card.'
          : 'Enter the 3-digit security code on the back of the card.',
    });
  }
  if (
    fields.postalCode !== undefined &&
    fields.postalCode !== '' &&
    !/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(String(fields.postalCode))
  ) {
    fieldErrors.push({ field: 'postalCode', message: 'Enter a valid postal code.' });
  }
  return fieldErrors.length > 0
    ? { ok: false, fieldErrors }
    : { ok: true, card: { digits, cardType, expirationMonth, expirationYear } };
}
