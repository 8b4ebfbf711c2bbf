/**
 * The rules of returning a charge that both sellers' refunds follow (a shop's orders in
 * functions/penpay, the Pro plan's charges in functions/subscriptions): what may be asked of a
 * charge in its state, the refusals that name what is left, and the one gateway call of a part of
 * a refund, made so that a retry after a lost answer finds what reached the gateway instead of
 * returning the money twice.
 *
 * Braintree's rule: a settled or settling charge is refunded, whole or in part; one not settled
 * yet can only be voided, whole.
 */
import { formatMoney, toDecimalAmount } from '../../../shared/payments/money';
import { HttpError } from '../errors';
import { type PaymentGateway, REFUNDABLE_STATUSES, type TransactionStatus, VOIDABLE_STATUSES } from './gateway';

export type RefundOperation = 'refund' | 'void';

/** A refund larger than what is left to refund of `what` (an order, a payment): 409 naming what is left. */
export class RefundTooLarge extends HttpError {
  constructor(leftMinor: number, currency: string, what: 'order' | 'payment' = 'order') {
    const left = formatMoney({ amountMinor: leftMinor, currency });
    super(
      409,
      'REFUND_TOO_LARGE',
      leftMinor > 0
        ? `Only ${left} is left to refund on this ${what}: refund that much or less.`
        : `Nothing is left to refund on this ${what}: it was refunded in full.`,
      { leftMinor, left },
    );
  }
}

/** Part of a charge that has not settled yet: Braintree can only void it, whole. 409. */
export class PaymentNotSettled extends HttpError {
  constructor(chargeAmountMinor: number, currency: string) {
    const whole = formatMoney({ amountMinor: chargeAmountMinor, currency });
    super(
      409,
      'PAYMENT_NOT_SETTLED',
      `The payment of ${whole} this refund would take from has not settled yet: until it settles (usually within a day) it can only be cancelled whole. Refund all of ${whole} now, or wait for it to settle to refund part of it.`,
      { transactionAmountMinor: chargeAmountMinor },
    );
  }
}

/** Whether a charge in this state has anything a refund or a void could return. */
export const isReturnable = (status: TransactionStatus) => VOIDABLE_STATUSES.has(status) || REFUNDABLE_STATUSES.has(status);

/**
 * How `amountMinor` of a charge (of which `leftMinor` is left) is returned: refunded when it
 * settled, voided when it did not and all of it is asked while none of it was returned before.
 * Throws PaymentNotSettled otherwise.
 */
export function operationFor(
  charge: { amountMinor: number; status: TransactionStatus },
  amountMinor: number,
  leftMinor: number,
  currency: string,
): RefundOperation {
  if (REFUNDABLE_STATUSES.has(charge.status)) return 'refund';
  if (amountMinor === charge.amountMinor && leftMinor === charge.amountMinor) return 'void';
  throw new PaymentNotSettled(charge.amountMinor, currency);
}

export interface RefundPartRequest {
  operation: RefundOperation;
  transactionId: string;
  amountMinor: number;
  /** Our id of this part, the order id its gateway refund carries: Braintree's refunds take no idempotency key. */
  key: string;
}

/**
 * Sends one part of a refund to the gateway and answers the gateway's id of what returned the
 * money. With `mayHaveReachedIt` (a claim resumed after a lost answer or a crash), it first looks
 * for what an earlier attempt sent (a refund by its order id, a void by the charge's status) and
 * sends nothing again when found. Throws RefundRefused when the gateway says no, and whatever the
 * gateway's adapter throws when it is out of reach (the outcome is then unknown).
 */
export async function sendRefundPart(
  gateway: PaymentGateway,
  part: RefundPartRequest,
  mayHaveReachedIt: boolean,
): Promise<string> {
  if (mayHaveReachedIt) {
    if (part.operation === 'void') {
      const charge = await gateway.findTransaction(part.transactionId);
      if (charge.status === 'voided') return charge.id;
    } else {
      const found = await gateway.findRefundByOrderId(part.key);
      if (found) return found.id;
    }
  }
  const done =
    part.operation === 'void'
      ? await gateway.voidTransaction(part.transactionId)
      : await gateway.refundTransaction({
          transactionId: part.transactionId,
          amount: toDecimalAmount(part.amountMinor),
          orderId: part.key,
        });
  return done.id;
}
