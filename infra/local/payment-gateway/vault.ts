import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PaymentMethodSummary } from '../../../functions/lib/payments/gateway';
import type {
  LocalCustomerRequest,
  LocalPaymentMethodRequest,
  LocalWireVerification,
} from '../../../functions/lib/payments/local-gateway-wire';
import {
  encodeLocalClientToken,
  LOCAL_CLIENT_TOKEN_LIFETIME_SECONDS,
  LOCAL_NONCE_LIFETIME_SECONDS,
  type LocalCardFields,
  type LocalCardOutcome,
  type LocalTokenizeRefusal,
  type LocalTokenizeResponse,
} from '../../../shared/payments/local-gateway';
import { ID_PATTERN, newId } from './billing';
import { GatewayHttpError, invalid, refused } from './refusals';
import { cardOutcome, checkCardFields, testNonce } from './sandbox-rules';
import type { MerchantState, StoredCard, StoredCustomer, StoredPaymentMethod } from './state';

/**
 * The vault side of the gateway: customers, client tokens, the browser's card tokenizing (a card
 * becomes a single-use nonce) and vaulting a nonce as a verified card.
 */

/** Braintree's limit on a customer id, and the ids it keeps for its own URLs. */
const CUSTOMER_ID_MAX_LENGTH = 36;
const RESERVED_CUSTOMER_IDS = new Set(['all', 'new']);

export function createCustomer(merchant: MerchantState, request: LocalCustomerRequest, now: Date): StoredCustomer {
  const { id, email, name } = request;
  if (typeof id !== 'string' || id === '') throw invalid('91613', 'id', 'Customer ID is required.');
  if (!ID_PATTERN.test(id)) throw invalid('91610', 'id', 'Customer ID is invalid (use only letters, numbers, "-" and "_").');
  if (id.length > CUSTOMER_ID_MAX_LENGTH) throw invalid('91612', 'id', 'Customer ID is too long.');
  if (RESERVED_CUSTOMER_IDS.has(id)) throw invalid('91611', 'id', 'Customer ID is not allowed.');
  if (merchant.customers.has(id)) throw invalid('91609', 'id', 'Customer ID has already been taken.');
  // Optional at Braintree; when given, it has to look like an address.
  if (email !== undefined && typeof email !== 'string') throw invalid('81604', 'email', 'Email is an invalid format.');
  if (email && !/^[^@\s]+@[^@\s]+$/.test(email)) throw invalid('81604', 'email', 'Email is an invalid format.');
  if (email && email.length > 255) throw invalid('81605', 'email', 'Email is too long.');
  if (name !== undefined && (typeof name !== 'string' || name.length > 255))
    throw invalid('81608', 'first_name', 'First name is too long.');
  const customer: StoredCustomer = { id, email: email ?? '', ...(name ? { name } : {}), createdAt: now.toISOString() };
  merchant.customers.set(id, customer);
  return customer;
}

interface Fingerprint {
  /** Merchant. */
  m: string;
  /** Customer, when the token was made for one. */
  c?: string;
  /** Expiry, epoch milliseconds of gateway time. */
  e: number;
}

const signatureOf = (merchant: MerchantState, payload: string) =>
  createHmac('sha256', merchant.privateKey).update(payload).digest('base64url');

/** A client token for the browser: where to tokenize, and a fingerprint the merchant's key signed. */
export function clientToken(merchant: MerchantState, customerId: string | undefined, tokenizeUrl: string, now: Date): string {
  if (customerId !== undefined && !merchant.customers.has(customerId)) {
    throw invalid('92804', 'customer_id', 'Customer specified by customer_id does not exist.');
  }
  const expiresAt = now.getTime() + LOCAL_CLIENT_TOKEN_LIFETIME_SECONDS * 1_000;
  const fingerprint: Fingerprint = { m: merchant.id, ...(customerId !== undefined ? { c: customerId } : {}), e: expiresAt };
  const payload = Buffer.from(JSON.stringify(fingerprint)).toString('base64url');
  return encodeLocalClientToken({
    version: 1,
    environment: 'local',
    merchantId: merchant.id,
    tokenizeUrl,
    authorizationFingerprint: `${payload}.${signatureOf(merchant, payload)}`,
    expiresAt: new Date(expiresAt).toISOString(),
    ...(customerId !== undefined ? { customerId } : {}),
  });
}

/** 401 unless the fingerprint is the merchant's own and not expired (by the gateway's clock). */
export function checkFingerprint(merchant: MerchantState, fingerprint: unknown, now: Date): void {
  const unauthorized = (message: string) => new GatewayHttpError(401, { message });
  if (typeof fingerprint !== 'string') throw unauthorized('An authorization fingerprint from a client token is required.');
  const [payload = '', signature = ''] = fingerprint.split('.');
  const expected = Buffer.from(signatureOf(merchant, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw unauthorized('The authorization fingerprint is not valid.');
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Fingerprint;
  if (decoded.m !== merchant.id) throw unauthorized('The authorization fingerprint is not valid.');
  if (decoded.e <= now.getTime()) throw unauthorized('The client token has expired: ask the server for a new one.');
}

const tokenizeRefusal = (refusal: LocalTokenizeRefusal) => new GatewayHttpError(422, { ...refusal });

/**
 * Turns the card form's fields into a single-use nonce (or hands back one of the test nonces):
 * what Braintree's client SDK does in the browser. The card number itself is not kept.
 */
export function tokenize(merchant: MerchantState, request: Record<string, unknown>, now: Date): LocalTokenizeResponse {
  if (typeof request.testNonce === 'string') {
    const known = testNonce(request.testNonce);
    if (!known) throw tokenizeRefusal({ message: `${request.testNonce} is not one of the test nonces.`, fieldErrors: [] });
    return { nonce: known.nonce, details: { cardType: known.cardType, lastFour: known.lastFour } };
  }
  const fields = request.creditCard;
  if (typeof fields !== 'object' || fields === null) {
    throw tokenizeRefusal({ message: 'Send the card fields (creditCard) or a test nonce (testNonce).', fieldErrors: [] });
  }
  const card = fields as Partial<Record<keyof LocalCardFields, unknown>>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const checked = checkCardFields(
    {
      number: text(card.number),
      expirationDate: text(card.expirationDate),
      cvv: text(card.cvv),
      ...(card.postalCode !== undefined ? { postalCode: text(card.postalCode) } : {}),
    },
    now.toISOString().slice(0, 10),
  );
  if (!checked.ok) throw tokenizeRefusal({ message: 'Check the card details.', fieldErrors: checked.fieldErrors });
  const { digits, cardType, expirationMonth, expirationYear } = checked.card;
  const nonce = `tokencc_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;
  merchant.nonces.set(nonce, {
    nonce,
    cardType,
    last4: digits.slice(-4),
    bin: digits.slice(0, 6),
    expirationMonth,
    expirationYear,
    outcome: cardOutcome(digits),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + LOCAL_NONCE_LIFETIME_SECONDS * 1_000).toISOString(),
    consumed: false,
  });
  return { nonce, details: { cardType, lastFour: digits.slice(-4) } };
}

/** Nonces past their expiry are of no more use: dropped so the state file stays small. */
export function forgetExpiredNonces(merchant: MerchantState, now: Date): void {
  for (const [nonce, stored] of merchant.nonces) if (stored.expiresAt < now.toISOString()) merchant.nonces.delete(nonce);
}

const VERIFICATIONS: Partial<Record<LocalCardOutcome, LocalWireVerification>> = {
  processor_declined: { status: 'processor_declined', processorResponseCode: '2000', processorResponseText: 'Do Not Honor' },
  failed: { status: 'failed', processorResponseCode: '3000', processorResponseText: 'Processor Network Unavailable - Try Again' },
  gateway_rejected: {
    status: 'gateway_rejected',
    processorResponseCode: '',
    processorResponseText: '',
    gatewayRejectionReason: 'fraud',
  },
};

const consumedNonce = () => invalid('93107', 'payment_method_nonce', 'Cannot use a payment_method_nonce more than once.');
const unknownNonce = () => invalid('93108', 'payment_method_nonce', 'Unknown or expired payment_method_nonce.');

/**
 * Vaults the card behind a nonce for a customer, verified as `options.verifyCard` asks: the
 * sandbox's nonces and card numbers decide the verification. A nonce is spent by any attempt.
 */
export function vaultPaymentMethod(
  merchant: MerchantState,
  request: LocalPaymentMethodRequest,
  now: Date,
  /** Tokens are unique across merchants: the decline control names a card by its token alone. */
  isTokenTaken: (token: string) => boolean,
): StoredPaymentMethod {
  const { customerId, paymentMethodNonce } = request;
  if (typeof customerId !== 'string' || !merchant.customers.has(customerId)) {
    throw invalid('93105', 'customer_id', 'Customer ID is invalid.');
  }
  if (typeof paymentMethodNonce !== 'string' || paymentMethodNonce === '') {
    throw invalid('93103', 'payment_method_nonce', 'Nonce is required.');
  }
  let card: StoredCard;
  let outcome: LocalCardOutcome;
  const known = testNonce(paymentMethodNonce);
  if (known) {
    outcome = known.outcome;
    card = {
      cardType: known.cardType,
      last4: known.lastFour,
      bin: '411111',
      expirationMonth: '12',
      expirationYear: String(now.getUTCFullYear() + 5),
    };
  } else {
    const stored = merchant.nonces.get(paymentMethodNonce);
    if (!stored || stored.expiresAt <= now.toISOString()) throw unknownNonce();
    if (stored.consumed) throw consumedNonce();
    stored.consumed = true;
    outcome = stored.outcome;
    card = {
      cardType: stored.cardType,
      last4: stored.last4,
      bin: stored.bin,
      expirationMonth: stored.expirationMonth,
      expirationYear: stored.expirationYear,
    };
  }
  if (outcome === 'consumed') throw consumedNonce();
  if (outcome === 'invalid_card') throw invalid('81715', 'number', 'Credit card number is invalid.');
  const verification = VERIFICATIONS[outcome];
  // Unverified (verifyCard false), a card the processor would decline is vaulted all the same.
  if (verification && request.options?.verifyCard !== false) {
    throw refused(
      [],
      { verification },
      verification.processorResponseText || `Gateway Rejected: ${verification.gatewayRejectionReason ?? ''}`,
    );
  }
  const method: StoredPaymentMethod = {
    ...card,
    token: newId(7, isTokenTaken),
    customerId,
    declining: false,
    ...(outcome === 'declines_later' ? { declinesAfterFirstCharge: true } : {}),
    createdAt: now.toISOString(),
  };
  merchant.paymentMethods.set(method.token, method);
  return method;
}

export function toPaymentMethodSummary(method: StoredPaymentMethod): PaymentMethodSummary & { customerId: string } {
  return {
    token: method.token,
    cardType: method.cardType,
    last4: method.last4,
    expirationDate: `${method.expirationMonth}/${method.expirationYear}`,
    customerId: method.customerId,
  };
}
