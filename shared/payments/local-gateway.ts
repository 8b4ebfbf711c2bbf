/**
 * The local payment gateway of `npm start` and the tests, as the web app and the functions see
 * it: the one local merchant's keys, the test nonces and test cards its card form offers, and
 * the client token the browser reads. Constants and types only (the web app bundles this file):
 * the gateway itself is infra/local/payment-gateway.
 *
 * The keys are not secrets. They exist on one machine only, like the 'local' AWS keys the local
 * runtime gives its emulators, and sign nothing anywhere else.
 */

export interface LocalGatewayKeys {
  readonly merchantId: string;
  readonly publicKey: string;
  readonly privateKey: string;
}

export const LOCAL_GATEWAY_KEYS: LocalGatewayKeys = {
  merchantId: 'local-merchant',
  publicKey: 'local-public-key',
  privateKey: 'local-private-key',
};

/** An add-on a local plan offers (Braintree keeps add-ons in its control panel, attached to plans). */
export interface LocalPlanAddOn {
  readonly id: string;
  readonly name: string;
  /** Per cycle, "2.00". */
  readonly amount: string;
}

/** A plan of the local gateway without its currency, which is the merchant account's. */
export interface LocalDemoPlan {
  readonly id: string;
  readonly name: string;
  readonly billingFrequencyMonths: number;
  /** The plan's price per cycle; a subscription names its own (the storefront's grade price). */
  readonly price: string;
  readonly addOns: readonly LocalPlanAddOn[];
}

const DEMO_ADD_ONS: readonly LocalPlanAddOn[] = [
  { id: 'extra-seat', name: 'Extra seat', amount: '2.00' },
  { id: 'priority-support', name: 'Priority support', amount: '5.00' },
];

/**
 * The plans a merchant account of the local gateway gets when none are named: the local merchant
 * of `npm start` (besides the Pro plan's) and every account made by `POST /__control/merchants`
 * without `plans` (a storefront merchant connecting locally). A grade's own price overrides the
 * plan's per subscription, as at Braintree.
 */
export const LOCAL_DEMO_PLANS: readonly LocalDemoPlan[] = [
  { id: 'monthly', name: 'Monthly', billingFrequencyMonths: 1, price: '10.00', addOns: DEMO_ADD_ONS },
  { id: 'quarterly', name: 'Quarterly', billingFrequencyMonths: 3, price: '10.00', addOns: DEMO_ADD_ONS },
  { id: 'yearly', name: 'Yearly', billingFrequencyMonths: 12, price: '10.00', addOns: DEMO_ADD_ONS },
];

/** LOCAL_DEMO_PLANS in a merchant account's currency (ISO 4217, "USD"). */
export function localDemoPlans(currency: string): (LocalDemoPlan & { readonly currency: string })[] {
  return LOCAL_DEMO_PLANS.map((plan) => ({ ...plan, addOns: plan.addOns.map((addOn) => ({ ...addOn })), currency }));
}

/** What the gateway does with a card when it is vaulted (verified) and charged. */
export type LocalCardOutcome =
  /** Verified; charges follow the test amounts. */
  | 'approved'
  /** Verification declined by the processor (2000 Do Not Honor): the card is not vaulted. */
  | 'processor_declined'
  /** Verification failed at the processor (3000): the card is not vaulted. */
  | 'failed'
  /** Refused by the gateway's fraud checks: the card is not vaulted. */
  | 'gateway_rejected'
  /** The nonce was used already. */
  | 'consumed'
  /** The card number fails the Luhn check. */
  | 'invalid_card'
  /**
   * Local only, not Braintree's: verified and vaulted, its first charge goes through, then every
   * later one is declined (2000 Do Not Honor). How a test makes "a later charge fail" from the
   * card form: subscribing works, the renewal is declined.
   */
  | 'declines_later';

export interface LocalTestNonce {
  readonly nonce: string;
  readonly label: string;
  readonly cardType: string;
  readonly lastFour: string;
  readonly outcome: LocalCardOutcome;
  /** False for the local gateway's own additions, which Braintree's sandbox does not know. */
  readonly braintree: boolean;
}

/**
 * Braintree's sandbox nonces that the local card form offers (its testing guide lists them),
 * plus one of the local gateway's own. Any other nonce is "unknown or expired".
 */
export const LOCAL_TEST_NONCES: readonly LocalTestNonce[] = [
  {
    nonce: 'fake-valid-nonce',
    label: 'Any card, approved',
    cardType: 'Visa',
    lastFour: '1881',
    outcome: 'approved',
    braintree: true,
  },
  {
    nonce: 'fake-valid-visa-nonce',
    label: 'Visa, approved',
    cardType: 'Visa',
    lastFour: '1881',
    outcome: 'approved',
    braintree: true,
  },
  {
    nonce: 'fake-valid-mastercard-nonce',
    label: 'Mastercard, approved',
    cardType: 'MasterCard',
    lastFour: '4444',
    outcome: 'approved',
    braintree: true,
  },
  {
    nonce: 'fake-valid-amex-nonce',
    label: 'American Express, approved',
    cardType: 'American Express',
    lastFour: '0005',
    outcome: 'approved',
    braintree: true,
  },
  {
    nonce: 'fake-valid-discover-nonce',
    label: 'Discover, approved',
    cardType: 'Discover',
    lastFour: '1117',
    outcome: 'approved',
    braintree: true,
  },
  {
    nonce: 'fake-processor-declined-visa-nonce',
    label: 'Visa, declined by the bank',
    cardType: 'Visa',
    lastFour: '1115',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    nonce: 'fake-processor-failure-visa-nonce',
    label: 'Visa, the card network fails (3000)',
    cardType: 'Visa',
    lastFour: '1881',
    outcome: 'failed',
    braintree: false,
  },
  {
    nonce: 'fake-gateway-rejected-fraud-nonce',
    label: 'Visa, rejected by fraud checks',
    cardType: 'Visa',
    lastFour: '1881',
    outcome: 'gateway_rejected',
    braintree: true,
  },
  {
    nonce: 'fake-consumed-nonce',
    label: 'Spent nonce',
    cardType: 'Visa',
    lastFour: '1881',
    outcome: 'consumed',
    braintree: true,
  },
  {
    nonce: 'fake-luhn-invalid-nonce',
    label: 'Invalid card number',
    cardType: 'Visa',
    lastFour: '1112',
    outcome: 'invalid_card',
    braintree: true,
  },
  {
    nonce: 'local-declines-later-visa-nonce',
    label: 'Visa, first charge approved, every later one declined (local only)',
    cardType: 'Visa',
    lastFour: '0341',
    outcome: 'declines_later',
    braintree: false,
  },
];

/**
 * Nonces Braintree's sandbox also knows that the form does not list: accepted all the same, so a
 * test written against the sandbox runs here unchanged.
 */
export const LOCAL_EXTRA_TEST_NONCES: readonly LocalTestNonce[] = [
  {
    nonce: 'fake-processor-declined-mastercard-nonce',
    label: 'Mastercard, declined by the bank',
    cardType: 'MasterCard',
    lastFour: '5100',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    nonce: 'fake-processor-declined-amex-nonce',
    label: 'American Express, declined by the bank',
    cardType: 'American Express',
    lastFour: '1000',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    nonce: 'fake-processor-declined-discover-nonce',
    label: 'Discover, declined by the bank',
    cardType: 'Discover',
    lastFour: '9424',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    nonce: 'fake-processor-failure-jcb-nonce',
    label: 'JCB, the card network fails (3000)',
    cardType: 'JCB',
    lastFour: '0505',
    outcome: 'failed',
    braintree: true,
  },
];

export interface LocalTestCard {
  readonly number: string;
  readonly label: string;
  readonly cardType: string;
  readonly outcome: LocalCardOutcome;
  readonly braintree: boolean;
}

/**
 * Braintree's sandbox test card numbers the form offers (its "Testing and Go Live" guide): any
 * future expiry, any CVV of the right length. A Luhn-valid number not listed here vaults as
 * approved, as the sandbox does.
 */
export const LOCAL_TEST_CARDS: readonly LocalTestCard[] = [
  { number: '4111111111111111', label: 'Visa, approved', cardType: 'Visa', outcome: 'approved', braintree: true },
  { number: '5555555555554444', label: 'Mastercard, approved', cardType: 'MasterCard', outcome: 'approved', braintree: true },
  {
    number: '378282246310005',
    label: 'American Express, approved',
    cardType: 'American Express',
    outcome: 'approved',
    braintree: true,
  },
  { number: '6011000991300009', label: 'Discover, approved', cardType: 'Discover', outcome: 'approved', braintree: true },
  {
    number: '4000111111111115',
    label: 'Visa, declined by the bank',
    cardType: 'Visa',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    number: '5105105105105100',
    label: 'Mastercard, declined by the bank',
    cardType: 'MasterCard',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    number: '378734493671000',
    label: 'American Express, declined by the bank',
    cardType: 'American Express',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    number: '6011000990139424',
    label: 'Discover, declined by the bank',
    cardType: 'Discover',
    outcome: 'processor_declined',
    braintree: true,
  },
  {
    number: '3566002020360505',
    label: 'JCB, the card network fails (3000)',
    cardType: 'JCB',
    outcome: 'failed',
    braintree: true,
  },
  {
    number: '4000000000000341',
    label: 'Visa, first charge approved, every later one declined (local only)',
    cardType: 'Visa',
    outcome: 'declines_later',
    braintree: false,
  },
];

/** A card nonce the form tokenized is good for this long, as Braintree's are. */
export const LOCAL_NONCE_LIFETIME_SECONDS = 3 * 60 * 60;
/** A client token is good for this long, as Braintree's are. */
export const LOCAL_CLIENT_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * What a local client token carries (base64 of this JSON), so the card form can tokenize straight
 * from the browser as Braintree's client SDK does with a real one.
 */
export interface LocalClientToken {
  readonly version: 1;
  readonly environment: 'local';
  readonly merchantId: string;
  /** Where the form posts the card (LocalTokenizeRequest): the gateway's own origin. */
  readonly tokenizeUrl: string;
  /** Proves the token came from the gateway; sent back with every tokenize request. */
  readonly authorizationFingerprint: string;
  /** ISO 8601 in the gateway's time: after it, tokenizing is refused. */
  readonly expiresAt: string;
  readonly customerId?: string;
}

export interface LocalCardFields {
  readonly number: string;
  /** "MM/YY" (or "MM/YYYY"). */
  readonly expirationDate: string;
  readonly cvv: string;
  readonly postalCode?: string;
}

/** The body of a tokenize request: card fields, or one of the test nonces. */
export type LocalTokenizeRequest =
  | { readonly authorizationFingerprint: string; readonly creditCard: LocalCardFields }
  | { readonly authorizationFingerprint: string; readonly testNonce: string };

export interface LocalTokenizeResponse {
  readonly nonce: string;
  readonly details: { readonly cardType: string; readonly lastFour: string };
}

export type LocalCardField = keyof LocalCardFields;

/** 422 from tokenize: one message per field the form should mark. */
export interface LocalTokenizeRefusal {
  readonly message: string;
  readonly fieldErrors: readonly { readonly field: LocalCardField; readonly message: string }[];
}

export function encodeLocalClientToken(token: LocalClientToken): string {
  const bytes = new TextEncoder().encode(JSON.stringify(token));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The token's content, or undefined when it is not a local client token. */
export function decodeLocalClientToken(encoded: string): LocalClientToken | undefined {
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as Partial<LocalClientToken> | null;
    if (
      parsed?.version !== 1 ||
      parsed.environment !== 'local' ||
      typeof parsed.merchantId !== 'string' ||
      typeof parsed.tokenizeUrl !== 'string' ||
      typeof parsed.authorizationFingerprint !== 'string' ||
      typeof parsed.expiresAt !== 'string'
    ) {
      return undefined;
    }
    return parsed as LocalClientToken;
  } catch {
    return undefined;
  }
}
