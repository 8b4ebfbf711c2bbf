/**
 * Refunding a store order through the shop's own gateway, exactly once.
 *
 * Claim first. A refund is numbered within its order (the next number, or the one the merchant's
 * screen knew: `knownRefunds` + 1), and created in one transaction with the order's reservation
 * of its amount: `refundCount` goes up by one on condition it is still what was read (refunds of
 * an order are serialized), and `refundedMinor` by the amount on condition it stays within the
 * order's total. Only the request whose claim went through calls the gateway; a repeat of the
 * same request (a double click, a retry, a parallel call) finds the refund by its number and
 * waits for its outcome instead.
 *
 * Braintree's refunds take no idempotency key, so each gateway refund carries our id
 * (`<refundId>-<part>`) as its order id, and a refund resumed after its claim lapsed (a lost
 * answer, a crash) first looks for what reached the gateway (findRefundByOrderId; a void by the
 * charge's status) and sends only what did not. A refusal ends the refund failed, with the
 * gateway's words, and releases the reservation; a gateway out of reach leaves it pending, its
 * claim released at once, for the next request on the order to resume.
 */
import { fromDecimalAmount } from '../../../shared/payments/money';
import type { RefundOrderBody } from '../../../shared/schemas/store';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import { refundIdOf, refundPartKeyOf, type StoreRefundItem } from '../../lib/db/entities/store-refund';
import { failedConditions, isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { BadRequest, Conflict } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { type PaymentGateway, RefundRefused } from '../../lib/payments/gateway';
import { sendRefundPart } from '../../lib/payments/refund-rules';
import { cancelAtGateway } from '../../lib/payments/subscription-changes';
import { fingerprintOf, type OrderCharge, planRefund, type RefundPart, type RefundPlan } from './refund-plan';
import { endRefund, readMerchantOrder, readRefund, readRefunds } from './refund-records';
import { tellRefunded } from './refund-mail';
import { shopGateway } from './shop-gateway';
import { applyStoreGatewayState } from './store-subscriptions';

/** How long a claim holds the refund: longer than the route may run, so a live request is never taken over. */
const CLAIM_MS = 60_000;
/** How long a repeated request waits for the refund it found under way. */
const WAIT_MS = 15_000;
const POLL_MS = 200;
/** Claims to try when another refund of the order got its number first. */
const CLAIM_ROUNDS = 3;

export interface RefundRequest {
  merchant: MerchantAccountItem;
  invoiceId: string;
  body: RefundOrderBody;
  requestedBy: string;
  now: () => Date;
}

const IN_PROGRESS = 'This refund is being made right now. Reload the order in a moment to see it.';


/**
 * Refunds the merchant's order as asked; resolves with the refund once it succeeded (made by
 * this call, or by an earlier or concurrent one of the same request). Throws 404 for an order
 * that is not the merchant's, RefundTooLarge (409, with what is left), PaymentNotSettled (409),
 * RefundRefused (409, the gateway's words) when the gateway said no, 503 when it is out of reach.
 */
export async function refundOrder(db: Db, request: RefundRequest): Promise<StoreRefundItem> {
  const { merchant, invoiceId } = request;
  let gateway: PaymentGateway | undefined;
  const openGateway = async () => (gateway ??= await shopGateway(db, merchant));
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    const order = await readMerchantOrder(db, merchant.merchantAccountId, invoiceId);
    const refunds = await readRefunds(db, invoiceId);
    // What a lost request left half-done is finished first: its reservation decides what is left.
    const lapsed = refunds.filter(
      (refund) => refund.status === 'pending' && Date.parse(refund.claimedUntil) <= request.now().getTime(),
    );
    if (lapsed.length > 0) {
      for (const refund of lapsed) {
        const outcome = resume(db, await openGateway(), merchant, refund, request.now);
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
    const count = order.refundCount ?? 0;
    const number = (request.body.knownRefunds ?? count) + 1;
    if (number > count + 1) {
      throw new BadRequest(
        `This order has ${count} refund${count === 1 ? '' : 's'}, not ${number - 1}: reload it and try again.`,
      );
    }
    const existing = refunds.find((refund) => refund.number === number);
    if (existing) return answerExisting(db, request, existing, openGateway);
    await requirePaidInFull(db, invoiceId);
    const charges = await orderCharges(db, await openGateway(), order);
    let plan: RefundPlan;
    try {
      plan = planRefund(order, charges, refunds, request.body);
    } catch (error) {
      // The charges are read live from the gateway, the order and its refunds a moment before: a
      // double click's other request may have claimed this very refund and voided the charge in
      // between, and the plan then finds nothing left. That request's refund is this one's answer.
      const claimedMeanwhile = await readRefund(db, invoiceId, number);
      if (claimedMeanwhile) return answerExisting(db, request, claimedMeanwhile, openGateway);
      throw error;
    }
    if (request.body.cancelSubscription && !plan.parts.some((part) => part.subscriptionId)) {
      throw new BadRequest('This refund returns no subscription charge, so there is no subscription to cancel with it.');
    }
    const claimed = await claim(db, request, order, number, plan);
    if (claimed === 'taken') {
      const found = await readRefund(db, invoiceId, number);
      if (found) return answerExisting(db, request, found, openGateway);
      continue;
    }
    if (claimed === 'moved') continue;
    return run(db, await openGateway(), merchant, claimed, request.now);
  }
  throw new Conflict(IN_PROGRESS);
}

/** Refunds are made only of orders paid in full: a partly paid one changes as the rest is paid. */
async function requirePaidInFull(db: Db, invoiceId: string): Promise<void> {
  const { data: invoice } = await db.entities.invoice.get({ invoiceId }).go({ consistent: true });
  if (invoice?.status !== 'paid') {
    throw new Conflict('Part of this order is still to be paid by its customer: it can be refunded once it is paid in full.');
  }
}

/**
 * The order's charges as the gateway has them now: the sale of its one-time lines (its id is on
 * the invoice), and each subscription line's first charge (the oldest of its subscription's).
 */
async function orderCharges(db: Db, gateway: PaymentGateway, order: StoreOrderItem): Promise<OrderCharge[]> {
  const { data: invoice } = await db.entities.invoice.get({ invoiceId: order.invoiceId }).go({ consistent: true });
  const charges: OrderCharge[] = [];
  const onceLines = order.lines.flatMap((line, index) => (line.billing === 'once' ? [index] : []));
  if (onceLines.length > 0 && invoice?.transactionId) {
    const sale = await gateway.findTransaction(invoice.transactionId);
    charges.push({
      transactionId: sale.id,
      amountMinor: fromDecimalAmount(sale.amount),
      status: sale.status,
      lineIndexes: onceLines,
    });
  }
  const subscriptions = await Promise.all(
    (invoice?.subscriptionIds ?? []).map(async (subscriptionId) => {
      const { data } = await db.entities.subscription.get({ subscriptionId }).go({ consistent: true });
      return data;
    }),
  );
  for (const subscription of subscriptions) {
    if (!subscription) continue;
    const index = order.lines.findIndex(
      (line) => line.billing === 'subscription' && line.productStockGradeId === subscription.priceId,
    );
    if (index < 0) continue;
    const found = await gateway.findSubscription(subscription.subscriptionId);
    const first = found.transactions[found.transactions.length - 1];
    if (!first) continue;
    charges.push({
      transactionId: first.id,
      subscriptionId: subscription.subscriptionId,
      amountMinor: fromDecimalAmount(first.amount),
      status: first.status,
      lineIndexes: [index],
    });
  }
  return charges;
}

/**
 * The claim: the refund, pending under this request's attempt, and the order's reservation, in
 * one transaction. 'taken' when the number is taken already (a repeat, or another refund got
 * there first); 'moved' when the order changed since it was read (read again and plan again).
 */
async function claim(
  db: Db,
  request: RefundRequest,
  order: StoreOrderItem,
  number: number,
  plan: RefundPlan,
): Promise<StoreRefundItem | 'taken' | 'moved'> {
  const now = request.now();
  const at = now.toISOString();
  const count = order.refundCount ?? 0;
  const refund: StoreRefundItem = {
    invoiceId: order.invoiceId,
    number,
    refundId: refundIdOf(order.invoiceId, number),
    merchantAccountId: order.merchantAccountId,
    customerId: order.customerId,
    requestedBy: request.requestedBy,
    scope: plan.scope,
    fingerprint: plan.fingerprint,
    reason: request.body.reason,
    amountMinor: plan.amountMinor,
    currency: order.currency,
    lineIndexes: plan.lineIndexes,
    gradeIds: plan.gradeIds,
    lineRefunds: plan.lineRefunds,
    figureScopes: plan.figureScopes,
    cancelSubscription: request.body.cancelSubscription ?? false,
    parts: plan.parts,
    status: 'pending',
    attempt: 1,
    claimedUntil: new Date(now.getTime() + CLAIM_MS).toISOString(),
    createdAt: at,
    updatedAt: at,
  };
  const mostBefore = order.totalMinor - plan.amountMinor;
  const result = await db.transaction
    .write(({ storeRefund, storeOrder }) => [
      storeRefund.create(refund).commit(),
      storeOrder
        .patch({ invoiceId: order.invoiceId })
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

/** A refund of the same number found: the same request gets its outcome; another one is told the order moved on. */
async function answerExisting(
  db: Db,
  request: RefundRequest,
  found: StoreRefundItem,
  openGateway: () => Promise<PaymentGateway>,
): Promise<StoreRefundItem> {
  if (found.fingerprint !== fingerprintOf(request.body)) {
    throw new Conflict(
      `The order changed since you opened it: refund ${found.number} was asked for meanwhile. Reload the order to see what is left to refund.`,
    );
  }
  let refund = found;
  const deadline = request.now().getTime() + WAIT_MS;
  while (refund.status === 'pending') {
    if (Date.parse(refund.claimedUntil) <= request.now().getTime()) {
      return resume(db, await openGateway(), request.merchant, refund, request.now);
    }
    if (request.now().getTime() > deadline) throw new Conflict(IN_PROGRESS);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    refund = (await readRefund(db, refund.invoiceId, refund.number)) ?? refund;
  }
  return answered(refund);
}

/** A failed refund answers its refusal again: a repeat of it is told the same. */
function answered(refund: StoreRefundItem): StoreRefundItem {
  if (refund.status === 'failed') throw new RefundRefused(refund.failure ?? 'The payment gateway refused the refund.');
  return refund;
}

/** Takes over a pending refund whose claim lapsed, and finishes it. */
async function resume(
  db: Db,
  gateway: PaymentGateway,
  merchant: MerchantAccountItem,
  lapsed: StoreRefundItem,
  now: () => Date,
): Promise<StoreRefundItem> {
  const attempt = lapsed.attempt + 1;
  const claimedUntil = new Date(now().getTime() + CLAIM_MS).toISOString();
  try {
    await db.entities.storeRefund
      .patch({ invoiceId: lapsed.invoiceId, number: lapsed.number })
      .set({ attempt, claimedUntil, updatedAt: now().toISOString() })
      .where(
        (attributes, { eq, lte }) =>
          `${eq(attributes.status, 'pending')} AND ${eq(attributes.attempt, lapsed.attempt)} AND ${lte(attributes.claimedUntil, now().toISOString())}`,
      )
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Someone else took it over or ended it: their outcome is the answer.
    const current = await readRefund(db, lapsed.invoiceId, lapsed.number);
    if (!current || current.status === 'pending') throw new Conflict(IN_PROGRESS);
    return answered(current);
  }
  return run(db, gateway, merchant, { ...lapsed, attempt, claimedUntil }, now);
}

/**
 * The claimed refund's parts at the gateway, in order, each looked for first when an earlier
 * attempt may have sent it; then the refund ended (refund-records.ts) and, by whoever ended it,
 * the subscriptions canceled if asked, and the customer told.
 */
async function run(
  db: Db,
  gateway: PaymentGateway,
  merchant: MerchantAccountItem,
  refund: StoreRefundItem,
  now: () => Date,
): Promise<StoreRefundItem> {
  const parts: RefundPart[] = refund.parts.map((part) => ({ ...part }));
  let failure: string | null = null;
  for (const [index, part] of parts.entries()) {
    if (part.status !== 'pending') continue;
    if (failure) {
      part.status = 'failed';
      continue;
    }
    try {
      part.gatewayId = await sendRefundPart(
        gateway,
        { ...part, key: refundPartKeyOf(refund, index) },
        // A later attempt looks first for what an earlier one may have sent.
        refund.attempt > 1,
      );
      part.status = 'succeeded';
    } catch (error) {
      if (!(error instanceof RefundRefused)) {
        // Out of reach, or an answer lost: whether it reached the gateway is unknown. The next request resumes it.
        await releaseClaim(db, refund, now());
        throw error;
      }
      part.status = 'failed';
      failure = error.message;
    }
  }
  const ended = await endRefund(db, refund, { parts, failure, now: now() });
  if (!ended) {
    const current = await readRefund(db, refund.invoiceId, refund.number);
    if (!current || current.status === 'pending') throw new Conflict(IN_PROGRESS);
    return answered(current);
  }
  return answered(ended.status === 'succeeded' ? await afterRefund(db, gateway, merchant, ended, now()) : ended);
}

/** Lets the next request resume the refund at once, instead of after the claim's time. */
async function releaseClaim(db: Db, refund: StoreRefundItem, now: Date): Promise<void> {
  try {
    await db.entities.storeRefund
      .patch({ invoiceId: refund.invoiceId, number: refund.number })
      .set({ claimedUntil: now.toISOString(), updatedAt: now.toISOString() })
      .where((attributes, { eq }) => `${eq(attributes.status, 'pending')} AND ${eq(attributes.attempt, refund.attempt)}`)
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * What follows a refund that went through, by the one request that ended it: the subscriptions
 * whose charge it returned canceled (when the merchant asked), then the customer told. Neither
 * undoes the refund: a failure is logged. Answers the refund as told.
 */
async function afterRefund(
  db: Db,
  gateway: PaymentGateway,
  merchant: MerchantAccountItem,
  refund: StoreRefundItem,
  now: Date,
): Promise<StoreRefundItem> {
  let told = refund;
  if (refund.cancelSubscription) {
    const subscriptionIds = [
      ...new Set(refund.parts.filter((part) => part.status === 'succeeded').flatMap((part) => part.subscriptionId ?? [])),
    ];
    let canceled = 0;
    for (const subscriptionId of subscriptionIds) {
      try {
        const { data: subscription } = await db.entities.subscription.get({ subscriptionId }).go({ consistent: true });
        if (!subscription) continue;
        const ended = await cancelAtGateway(gateway, subscription);
        if (ended) await applyStoreGatewayState(db, ended, now, { merchant });
        canceled += 1;
      } catch (error) {
        logger.error('A refund went through but its subscription could not be canceled', {
          refundId: refund.refundId,
          errorName: (error as Error).name,
        });
      }
    }
    if (canceled > 0) {
      told = { ...refund, canceledSubscriptions: canceled };
      await db.entities.storeRefund
        .patch({ invoiceId: refund.invoiceId, number: refund.number })
        .set({ canceledSubscriptions: canceled })
        .go()
        .catch((error: unknown) => {
          logger.error('A refund canceled a subscription but could not record it', { errorName: (error as Error).name });
        });
    }
  }
  const order = await readMerchantOrder(db, refund.merchantAccountId, refund.invoiceId);
  await tellRefunded(db, { merchant, order, refund: told, now });
  return told;
}
