import { ApiError } from '../api-client';

/** Why a payment (or a new card) did not go through, in the words the page shows. */
export type PaymentProblem =
  /** The bank or the gateway said no: the server's message, for the buyer as it is. */
  | { kind: 'declined'; message: string }
  /** The payment provider is out of reach: nothing was charged. */
  | { kind: 'unavailable'; message: string }
  /** 409: what was to be paid changed or ended (on Pro already, a price changed, the subscription ended). */
  | { kind: 'conflict'; message: string }
  | { kind: 'other'; message: string };

function retryIn(error: ApiError): string {
  const seconds = error.body?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 && seconds < 120 ? `in ${Math.ceil(seconds)} seconds` : 'in a minute';
}

/**
 * The problem a failed payment call names, for the card form to show. `conflict` is what a 409
 * means to the caller, in case the server's answer carried no message.
 */
export function paymentProblemOf(
  error: unknown,
  { conflict = 'This can no longer be paid as it was: reload the page to see what changed.' }: { conflict?: string } = {},
): PaymentProblem {
  if (error instanceof ApiError) {
    if (error.status === 402) return { kind: 'declined', message: error.message || 'Your card was declined.' };
    if (error.status === 409) return { kind: 'conflict', message: error.message || conflict };
    if (error.status === 503) {
      return {
        kind: 'unavailable',
        message: `The payment provider is not answering right now. Nothing was charged: please try again ${retryIn(error)}.`,
      };
    }
    return { kind: 'other', message: error.message || 'Something went wrong. Please try again.' };
  }
  // No answer at all: whether the charge went through is unknown, but paying is idempotent, so
  // trying again never charges twice.
  return {
    kind: 'other',
    message: 'We could not reach our server. Check your connection and try again: you will not be charged twice.',
  };
}
