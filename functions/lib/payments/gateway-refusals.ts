/**
 * What a "no" from the gateway means for the buyer, in words they understand, for both adapters:
 * Braintree's answers and the local gateway's (which answers with Braintree's codes) map here to
 * the port's errors.
 */
import { GatewayRefusedRequest, PaymentDeclined } from './gateway';

/**
 * Braintree's processor response texts for the codes a card is declined with (its "Processor
 * responses: Authorization" reference). The sandbox declines an amount of 2000.00-2999.99 with
 * the code of its whole part.
 */
export const PROCESSOR_RESPONSE_TEXTS: Readonly<Record<string, string>> = {
  '2000': 'Do Not Honor',
  '2001': 'Insufficient Funds',
  '2002': 'Limit Exceeded',
  '2003': "Cardholder's Activity Limit Exceeded",
  '2004': 'Expired Card',
  '2005': 'Invalid Credit Card Number',
  '2006': 'Invalid Expiration Date',
  '2007': 'No Account',
  '2008': 'Card Account Length Error',
  '2009': 'No Such Issuer',
  '2010': 'Card Issuer Declined CVV',
  '2011': 'Voice Authorization Required',
  '2012': 'Processor Declined - Possible Lost Card',
  '2013': 'Processor Declined - Possible Stolen Card',
  '2014': 'Processor Declined - Fraud Suspected',
  '2015': 'Transaction Not Allowed',
  '2016': 'Duplicate Transaction',
  '2017': 'Cardholder Stopped Billing',
  '2018': 'Cardholder Stopped All Billing',
  '2019': 'Invalid Transaction',
  '2020': 'Violation',
  '2021': 'Security Violation',
  '2022': 'Declined - Updated Cardholder Available',
  '2023': 'Processor Does Not Support This Feature',
  '2024': 'Card Type Not Enabled',
  '2038': 'Processor Declined',
  '2044': 'Declined - Call Issuer',
  '2046': 'Declined',
  '2047': 'Call Issuer. Pick Up Card',
  '3000': 'Processor Network Unavailable - Try Again',
};

export function processorResponseText(code: string): string {
  return (
    PROCESSOR_RESPONSE_TEXTS[code] ?? (code.startsWith('3') ? 'Processor Network Unavailable - Try Again' : 'Processor Declined')
  );
}

/** Why the gateway's own checks stopped a payment, said for the buyer. */
const GATEWAY_REJECTION_REASONS: Readonly<Record<string, string>> = {
  avs: 'the billing address did not match the card',
  cvv: 'the security code did not match the card',
  avs_and_cvv: 'the billing address and security code did not match the card',
  fraud: 'it looked risky to the fraud checks',
  risk_threshold: 'it looked risky to the fraud checks',
  duplicate: 'the same payment was made moments ago',
  three_d_secure: "the card's 3D Secure check did not pass",
  token_issuance: 'the card could not be set up for payments',
  application_incomplete: 'the shop cannot take this payment right now',
};

/** A charge or card verification the gateway answered with a decline, as its adapters read it. */
export interface DeclinedAttempt {
  status: string;
  processorResponseCode?: string | null | undefined;
  processorResponseText?: string | null | undefined;
  gatewayRejectionReason?: string | null | undefined;
}

/**
 * The buyer's error for a declined charge or verification; undefined when the status is not a
 * decline (the caller then has something else to explain).
 */
export function declineOf(attempt: DeclinedAttempt, cause?: unknown): PaymentDeclined | undefined {
  const code = attempt.processorResponseCode ?? '';
  const text = attempt.processorResponseText || (code ? processorResponseText(code) : '');
  switch (attempt.status) {
    case 'processor_declined':
      return new PaymentDeclined(
        'processor_declined',
        `Your card was declined by your bank${text ? ` (${text})` : ''}. Try another card.`,
        { cause, ...(text ? { processorResponseText: text } : {}) },
      );
    case 'failed':
      return new PaymentDeclined(
        'failed',
        `Your bank could not be reached to approve the payment${text ? ` (${text})` : ''}. Nothing was charged: try again in a few minutes, or try another card.`,
        { cause, ...(text ? { processorResponseText: text } : {}) },
      );
    case 'gateway_rejected': {
      const reason = GATEWAY_REJECTION_REASONS[attempt.gatewayRejectionReason ?? ''];
      return new PaymentDeclined(
        'gateway_rejected',
        `The payment was stopped before it reached your bank${reason ? `: ${reason}` : ''}. Try another card.`,
        { cause },
      );
    }
    default:
      return undefined;
  }
}

export interface GatewayValidationError {
  code: string;
  attribute?: string | undefined;
  message: string;
}

/** "Cannot use a payment_method_nonce more than once", as each resource names it. */
const NONCE_CONSUMED_CODES = new Set(['93107', '91564', '91731', '92907', '93504']);
/** Unknown, expired, locked or malformed nonces: the card form has to be filled in again. */
const NONCE_INVALID_CODES = new Set(['93102', '93108', '93109', '91565', '91566', '91732', '91733', '92908', '92909', '91925']);
const CARD_NUMBER_CODES = new Set(['81714', '81715', '81716', '81717', '81750']);
const CARD_EXPIRY_CODES = new Set(['81709', '81710', '81711', '81712', '81713']);
const CARD_CVV_CODES = new Set(['81706', '81707', '81736']);
const CARD_POSTAL_CODE_CODES = new Set(['81737', '81808', '81809', '81813', '91826']);

/** Braintree's code for a subscription id that exists already ("ID has already been taken"). */
export const SUBSCRIPTION_ID_IN_USE_CODE = '81902';

/**
 * The buyer's error for validation errors about the card or its nonce; undefined when none of
 * them is (they are then about our request, which is our bug).
 */
export function cardRefusalOf(errors: readonly GatewayValidationError[], cause?: unknown): PaymentDeclined | undefined {
  const codes = new Set(errors.map((error) => error.code));
  const any = (set: ReadonlySet<string>) => [...codes].some((code) => set.has(code));
  if (any(NONCE_CONSUMED_CODES)) {
    return new PaymentDeclined('consumed_nonce', 'These card details were used already. Please enter your card again.', {
      cause,
    });
  }
  if (any(NONCE_INVALID_CODES)) {
    return new PaymentDeclined(
      'invalid_nonce',
      'These card details expired or were not recognised. Please enter your card again.',
      {
        cause,
      },
    );
  }
  if (any(CARD_NUMBER_CODES)) {
    return new PaymentDeclined('invalid_card', 'The card number is not valid. Check it and try again.', { cause });
  }
  if (any(CARD_EXPIRY_CODES)) {
    return new PaymentDeclined('invalid_card', "The card's expiry date is not valid. Check it and try again.", { cause });
  }
  if (any(CARD_CVV_CODES)) {
    return new PaymentDeclined('invalid_card', "The card's security code did not match. Check it and try again.", { cause });
  }
  if (any(CARD_POSTAL_CODE_CODES)) {
    return new PaymentDeclined('invalid_card', "The postal code did not match the card's. Check it and try again.", { cause });
  }
  return undefined;
}

/** A refusal that is about our own request: a 500, with the gateway's words for the log; nothing was charged. */
export function requestRefused(
  operation: string,
  errors: readonly GatewayValidationError[],
  message?: string,
): GatewayRefusedRequest {
  const detail =
    errors.length > 0 ? errors.map((error) => `${error.code} ${error.message}`).join('; ') : (message ?? 'no reason given');
  return new GatewayRefusedRequest(
    `The payment gateway refused ${operation}: ${detail}`,
    errors.map((error) => error.code),
  );
}
