/**
 * A superuser refunding a Pro plan charge through the product's own gateway, exactly once, by
 * the rules both sellers share (functions/lib/payments/refund-rules.ts).
 *
 * Claim first. A refund is numbered within its charge (the next number, or the one the
 * superuser's screen knew: `knownRefunds` + 1), and created in one transaction with the charge's
 * reservation of its amount: the payment item's `refundCount` goes up by one on condition it is
 * still what was read (refunds of a charge are serialized), and `refundedMinor` by the amount on
 * condition it stays within the charge. Only the request whose claim went through calls the
 * gateway; a repeat of the same request (a double click, a retry, a parallel call) finds the
 * refund by its number and waits for its outcome instead.
 *
 * The refund's id (`<transactionId>_r<n>`) is the order id its gateway refund carries, so a
 * refund resumed after its claim lapsed (a lost answer, a crash) first looks for what reached the
 * gateway and sends it only when it did not. A refusal ends the refund failed, with the gateway's
 * words, and releases the reservation; a gateway out of reach leaves it pending, its claim
 * released at once, for the next request on the charge to resume.
 */
import type { ProRefundView, ProChargeView, RefundProChargeBody } from '../../../shared/schemas/pro-refunds';
import type { ChargeRefundView } from '../../../shared/schemas/subscriptions';
import type { PaymentItem } from '../../lib/db/entities/payment';
import { type ProRefundItem, proRefundIdOf } from '../../lib/db/entities/pro-refund';
import { failedConditions, isConditionalCheckFailed } from '../../lib/db/errors';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { Db } from '../../lib/db/service';
import { BadRequest, Conflict, NotFound } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { type PaymentGateway, RefundRefused, type TransactionStatus } from '../../lib/payments/gateway';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';
import { isReturnable, operationFor, type RefundOperation, RefundTooLarge, sendRefundPart } from '../../lib/payments/refund-rules';
import { cancelAtGateway } from '../../lib/payments/subscription-changes';
import { tellProRefunded } from './pro-refund-mail';
import { applyGatewayState } from './subscriptions';
import { toPaymentRecordView } from './views';

/** How long a claim holds the refund: longer than the route may run, so a live request is never taken over. */
const CLAIM_MS = 60_000;
/** How long a repeated request waits for the refund it found under way. */
const WAIT_MS = 15_000;
const POLL_MS = 200;
/** Claims to try when another refund of the charge got its number first. */
const CLAIM_ROUNDS = 3;

const IN_PROGRESS = 'This refund is being made right now. Look the person up again in a moment to see it.';

export class ProChargeNotFound extends NotFound {
  constructor() {
    super('No such Pro plan charge.');
  }
}

export interface ProRefundRequest {
  transactionId: string;
  body: RefundProChargeBody;
  requestedBy: string;
  gateway: () => Promise<PaymentGateway>;
  now: () => Date;
}

export interface ProRefundPlan {
  amountMinor: number;
  operation: RefundOperation;
}

/** A charge of the Pro plan; a shop's charge (another seller's) is as absent as a made-up id. */
export async function readProCharge(db: Db, transactionId: string): Promise<PaymentItem> {
  const { data } = await db.entities.payment.get({ transactionId }).go({ consistent: true });
  if (!data || data.sellerId !== PLATFORM_SELLER_ID) throw new ProChargeNotFound();
  return data;
}

/** A charge's refunds, oldest first. One Query. */
export async function readChargeRefunds(db: Db, transactionId: string): Promise<ProRefundItem[]> {
  const { data } = await db.entities.proRefund.query.byTransaction({ transactionId }).go({ consistent: true, pages: 'all' });
  return data.sort((a, b) => a.number - b.number);
}

async function readRefund(db: Db, transactionId: string, number: number): Promise<ProRefundItem | null> {
  const { data } = await db.entities.proRefund.get({ transactionId, number }).go({ consistent: true });
  return data;
}

/** The same request asked again finds the same refund: everything that decides what it does. */
export const fingerprintOf = (body: RefundProChargeBody): string =>
  JSON.stringify({ amountMinor: body.amountMinor ?? null, reason: body.reason, cancelSubscription: body.cancelSubscription ?? false });

/**
 * What a refund asked of a charge (in `status` at the gateway now) means: how much (all that is
 * left unless an amount is given) and how. Throws RefundTooLarge naming what is left,
 * PaymentNotSettled for part of a charge not settled yet, a 409 for a charge the gateway has
 * nothing of to return (declined, or voided outside the product).
 */
export function planProRefund(payment: PaymentItem, status: TransactionStatus, body: RefundProChargeBody): ProRefundPlan {
  const leftMinor = Math.max(0, payment.amountMinor - (payment.refundedMinor ?? 0));
  // Refunded in full by us (a void included, which leaves the charge 'voided'): say so first.
  if (leftMinor === 0) throw new RefundTooLarge(0, payment.currency, 'payment');
  if (!isReturnable(status)) {
    throw new Conflict(`The gateway has this charge as ${status.replaceAll('_', ' ')}: there is nothing of it to refund.`);
  }
  const amountMinor = body.amountMinor ?? leftMinor;
  if (amountMinor > leftMinor) throw new RefundTooLarge(leftMinor, payment.currency, 'payment');
  const operation = operationFor({ amountMinor: payment.amountMinor, status }, amountMinor, leftMinor, payment.currency);
  return { amountMinor, operation };
}

/**
 * Refunds the Pro charge as asked; resolves with the refund once it succeeded (made by this call,
 * or by an earlier or concurrent one of the same request). Throws ProChargeNotFound,
 * RefundTooLarge, PaymentNotSettled, RefundRefused (the gateway's words), 503 when the gateway
 * is out of reach.
 */
export async function refundProCharge(db: Db, request: ProRefundRequest): Promise<ProRefundItem> {
  const { transactionId } = request;
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    const payment = await readProCharge(db, transactionId);
    const refunds = await readChargeRefunds(db, transactionId);
    // What a lost request left half-done is finished first: its reservation decides what is left.
    const lapsed = refunds.filter(
      (refund) => refund.status === 'pending' && Date.parse(refund.claimedUntil) <= request.now().getTime(),
    );
    if (lapsed.length > 0) {
      for (const refund of lapsed) {
        const outcome = resume(db, request, refund);
        // This very request, retried after its answer was lost: the resumed refund is its answer.
        const same =
          refund.fingerprint === fingerprintOf(request.body) &&
          (request.body.knownRefunds === undefined || request.body.knownRefunds === refund.number - 1);
        if (same) return outcome;
        await outcome.catch((error: unknown) => {
          // Another refund's refusal is not this request's: it is recorded on that refund.
          if (!(error instanceof RefundRefused)) throw error;
        });
      }
      continue;
    }
    const count = payment.refundCount ?? 0;
    const number = (request.body.knownRefunds ?? count) + 1;
    if (number > count + 1) {
      throw new BadRequest(
        `This charge has ${count} refund${count === 1 ? '' : 's'}, not ${number - 1}: look the person up again and retry.`,
      );
    }
    const existing = refunds.find((refund) => refund.number === number);
    if (existing) return answerExisting(db, request, existing);
    if (request.body.cancelSubscription && !payment.subscriptionId) {
      throw new BadRequest('This charge paid for no subscription, so there is none to cancel with its refund.');
    }
    const charge = await (await request.gateway()).findTransaction(transactionId);
    const plan = planProRefund(payment, charge.status, request.body);
    const claimed = await claim(db, request, payment, number, plan);
    if (claimed === 'taken') {
      const found = await readRefund(db, transactionId, number);
      if (found) return answerExisting(db, request, found);
      continue;
    }
    if (claimed === 'moved') continue;
    return run(db, request, claimed);
  }
  throw new Conflict(IN_PROGRESS);
}

/**
 * The claim: the refund, pending under this request's attempt, and the charge's reservation, in
 * one transaction. 'taken' when the number is taken already (a repeat, or another refund got
 * there first); 'moved' when the charge changed since it was read (read again and plan again).
 */
async function claim(
  db: Db,
  request: ProRefundRequest,
  payment: PaymentItem,
  number: number,
  plan: ProRefundPlan,
): Promise<ProRefundItem | 'taken' | 'moved'> {
  const now = request.now();
  const at = now.toISOString();
  const count = payment.refundCount ?? 0;
  const refund: ProRefundItem = {
    transactionId: payment.transactionId,
    number,
    refundId: proRefundIdOf(payment.transactionId, number),
    customerId: payment.customerId,
    ...(payment.subscriptionId ? { subscriptionId: payment.subscriptionId } : {}),
    requestedBy: request.requestedBy,
    fingerprint: fingerprintOf(request.body),
    reason: request.body.reason,
    amountMinor: plan.amountMinor,
    currency: payment.currency,
    operation: plan.operation,
    status: 'pending',
    attempt: 1,
    claimedUntil: new Date(now.getTime() + CLAIM_MS).toISOString(),
    cancelSubscription: request.body.cancelSubscription ?? false,
    createdAt: at,
    updatedAt: at,
  };
  const mostBefore = payment.amountMinor - plan.amountMinor;
  const result = await db.transaction
    .write(({ proRefund, payment: payments }) => [
      proRefund.create(refund).commit(),
      payments
        .patch({ transactionId: payment.transactionId })
        .add({ refundCount: 1, refundedMinor: plan.amountMinor })
        .where(
          (attributes, { eq, notExists, lte }) =>
            `${count === 0 ? notExists(attributes.refundCount) : eq(attributes.refundCount, count)} AND (${notExists(attributes.refundedMinor)} OR ${lte(attributes.refundedMinor, mostBefore)})`,
        )
        .commit(),
    ])
    .go();
  if (!result.canceled) return refund;
  if (failedConditions(result).includes(0)) return 'taken';
  return 'moved';
}

/** A refund of the same number found: the same request gets its outcome; another one is told the charge moved on. */
async function answerExisting(db: Db, request: ProRefundRequest, found: ProRefundItem): Promise<ProRefundItem> {
  if (found.fingerprint !== fingerprintOf(request.body)) {
    throw new Conflict(
      `This charge changed since you looked: refund ${found.number} was asked for meanwhile. Look the person up again to see what is left to refund.`,
    );
  }
  let refund = found;
  const deadline = request.now().getTime() + WAIT_MS;
  while (refund.status === 'pending') {
    if (Date.parse(refund.claimedUntil) <= request.now().getTime()) return resume(db, request, refund);
    if (request.now().getTime() > deadline) throw new Conflict(IN_PROGRESS);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    refund = (await readRefund(db, refund.transactionId, refund.number)) ?? refund;
  }
  return answered(refund);
}

/** A failed refund answers its refusal again: a repeat of it is told the same. */
function answered(refund: ProRefundItem): ProRefundItem {
  if (refund.status === 'failed') throw new RefundRefused(refund.failure ?? 'The payment gateway refused the refund.');
  return refund;
}

/** Takes over a pending refund whose claim lapsed, and finishes it. */
async function resume(db: Db, request: ProRefundRequest, lapsed: ProRefundItem): Promise<ProRefundItem> {
  const now = request.now();
  const attempt = lapsed.attempt + 1;
  const claimedUntil = new Date(now.getTime() + CLAIM_MS).toISOString();
  try {
    await db.entities.proRefund
      .patch({ transactionId: lapsed.transactionId, number: lapsed.number })
      .set({ attempt, claimedUntil, updatedAt: now.toISOString() })
      .where(
        (attributes, { eq, lte }) =>
          `${eq(attributes.status, 'pending')} AND ${eq(attributes.attempt, lapsed.attempt)} AND ${lte(attributes.claimedUntil, now.toISOString())}`,
      )
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Someone else took it over or ended it: their outcome is the answer.
    const current = await readRefund(db, lapsed.transactionId, lapsed.number);
    if (!current || current.status === 'pending') throw new Conflict(IN_PROGRESS);
    return answered(current);
  }
  return run(db, request, { ...lapsed, attempt, claimedUntil });
}

/** The claimed refund at the gateway, then ended, then (by whoever ended it) the subscription canceled if asked and the person told. */
async function run(db: Db, request: ProRefundRequest, refund: ProRefundItem): Promise<ProRefundItem> {
  const gateway = await request.gateway();
  let gatewayId: string | null = null;
  let failure: string | null = null;
  try {
    gatewayId = await sendRefundPart(
      gateway,
      { operation: refund.operation, transactionId: refund.transactionId, amountMinor: refund.amountMinor, key: refund.refundId },
      // A later attempt looks first for what an earlier one may have sent.
      refund.attempt > 1,
    );
  } catch (error) {
    if (!(error instanceof RefundRefused)) {
      // Out of reach, or an answer lost: whether it reached the gateway is unknown. The next request resumes it.
      await releaseClaim(db, refund, request.now());
      throw error;
    }
    failure = error.message;
  }
  const ended = await endRefund(db, refund, { gatewayId, failure, now: request.now() });
  if (!ended) {
    const current = await readRefund(db, refund.transactionId, refund.number);
    if (!current || current.status === 'pending') throw new Conflict(IN_PROGRESS);
    return answered(current);
  }
  return answered(ended.status === 'succeeded' ? await afterRefund(db, gateway, ended, request.now()) : ended);
}

/** Lets the next request resume the refund at once, instead of after the claim's time. */
async function releaseClaim(db: Db, refund: ProRefundItem, now: Date): Promise<void> {
  try {
    await db.entities.proRefund
      .patch({ transactionId: refund.transactionId, number: refund.number })
      .set({ claimedUntil: now.toISOString(), updatedAt: now.toISOString() })
      .where((attributes, { eq }) => `${eq(attributes.status, 'pending')} AND ${eq(attributes.attempt, refund.attempt)}`)
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * Ends the claimed refund, once: succeeded with the gateway's id, or failed with its words (the
 * reservation then goes back to the charge, in the same transaction). The ended refund when this
 * call ended it; null when another attempt had (nothing written).
 */
async function endRefund(
  db: Db,
  refund: ProRefundItem,
  outcome: { gatewayId: string | null; failure: string | null; now: Date },
): Promise<ProRefundItem | null> {
  const at = outcome.now.toISOString();
  const succeeded = outcome.gatewayId !== null;
  const ended: ProRefundItem = {
    ...refund,
    status: succeeded ? 'succeeded' : 'failed',
    ...(outcome.gatewayId ? { gatewayId: outcome.gatewayId } : {}),
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    completedAt: at,
    updatedAt: at,
  };
  return retryContendedWrite({ what: 'refunding payments' }, async () => {
    const result = await db.transaction
      .write(({ proRefund, payment }) => [
        proRefund
          .patch({ transactionId: refund.transactionId, number: refund.number })
          .set({
            status: ended.status,
            completedAt: at,
            updatedAt: at,
            ...(outcome.gatewayId ? { gatewayId: outcome.gatewayId } : {}),
            ...(outcome.failure ? { failure: outcome.failure } : {}),
          })
          .where((attributes, { eq }) => `${eq(attributes.status, 'pending')} AND ${eq(attributes.attempt, refund.attempt)}`)
          .commit(),
        ...(succeeded
          ? []
          : [payment.patch({ transactionId: refund.transactionId }).add({ refundedMinor: -refund.amountMinor }).commit()]),
      ])
      .go();
    if (!result.canceled) return ended;
    if (failedConditions(result).includes(0)) return null;
    return lostRace(result);
  });
}

/**
 * What follows a refund that went through, by the one request that ended it: the subscription
 * canceled (when asked), then the person told. Neither undoes the refund: a failure is logged.
 */
async function afterRefund(db: Db, gateway: PaymentGateway, refund: ProRefundItem, now: Date): Promise<ProRefundItem> {
  let told = refund;
  if (refund.cancelSubscription && refund.subscriptionId) {
    try {
      const { data: subscription } = await db.entities.subscription
        .get({ subscriptionId: refund.subscriptionId })
        .go({ consistent: true });
      if (subscription) {
        const canceled = await cancelAtGateway(gateway, subscription);
        // The webhook of the cancellation may race this: whoever applies it first confirms it by email.
        if (canceled) await applyGatewayState(db, canceled, now);
        told = { ...refund, subscriptionCanceled: true };
        await db.entities.proRefund
          .patch({ transactionId: refund.transactionId, number: refund.number })
          .set({ subscriptionCanceled: true })
          .go();
      }
    } catch (error) {
      logger.error('A Pro charge was refunded but its subscription could not be canceled', {
        refundId: refund.refundId,
        errorName: (error as Error).name,
      });
    }
  }
  const payment = await readProCharge(db, refund.transactionId);
  await tellProRefunded(db, { payment, refund: told, now });
  return told;
}

export function toProRefundView(refund: ProRefundItem): ProRefundView {
  return {
    refundId: refund.refundId,
    number: refund.number,
    status: refund.status,
    operation: refund.operation,
    amount: { amountMinor: refund.amountMinor, currency: refund.currency },
    reason: refund.reason,
    subscriptionCanceled: refund.subscriptionCanceled ?? false,
    failure: refund.failure ?? null,
    createdAt: refund.createdAt,
    completedAt: refund.completedAt ?? null,
  };
}

/** The refunds of a charge its person sees: those that went through, oldest first. */
export function toChargeRefundViews(refunds: readonly ProRefundItem[]): ChargeRefundView[] {
  return refunds
    .filter((refund) => refund.status === 'succeeded')
    .sort((a, b) => a.number - b.number)
    .map((refund) => ({
      amount: { amountMinor: refund.amountMinor, currency: refund.currency },
      operation: refund.operation,
      reason: refund.reason,
      refundedAt: refund.completedAt ?? refund.updatedAt,
    }));
}

/** A charge as a superuser refunds it; `refundedMinor` counts refunds under way too (they are reserved). */
export function toProChargeView(payment: PaymentItem, refunds: readonly ProRefundItem[]): ProChargeView {
  const money = (amountMinor: number) => ({ amountMinor, currency: payment.currency });
  const refunded = payment.refundedMinor ?? 0;
  return {
    payment: toPaymentRecordView(payment, toChargeRefundViews(refunds)),
    subscriptionId: payment.subscriptionId ?? null,
    refunded: money(refunded),
    left: money(Math.max(0, payment.amountMinor - refunded)),
    refundsAsked: [...refunds].sort((a, b) => a.number - b.number).map(toProRefundView),
  };
}

/** A person's refunds (the latest 100, plenty for 24 charges shown), by the charge they returned. */
export async function readRefundsOfPerson(db: Db, customerId: string): Promise<Map<string, ProRefundItem[]>> {
  const { data } = await db.entities.proRefund.query.byCustomer({ customerId }).go({ order: 'desc', limit: 100 });
  const byCharge = new Map<string, ProRefundItem[]>();
  for (const refund of data) byCharge.set(refund.transactionId, [...(byCharge.get(refund.transactionId) ?? []), refund]);
  return byCharge;
}
