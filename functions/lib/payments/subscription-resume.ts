/**
 * Resuming a canceled subscription while its paid time runs: no charge now, and it renews on the
 * day it would have, as Stripe's "resume" of a cancel-at-period-end does.
 *
 * Canceling cancels at the gateway at once (subscription-changes.ts: nothing more can be charged,
 * whatever happens to us afterwards) and keeps the paid-through date. Braintree cannot reactivate
 * a canceled subscription, so resuming starts a new one at the gateway on the same saved card,
 * plan and price, with its first billing date the day after the canceled one's paid time: it is
 * Pending, charged nothing, until then. Our copy of it carries the paid-through date over, which
 * gives Pro meanwhile (entitlement.ts), and takes over the plan family's place.
 *
 * Exactly once: the canceled subscription is claimed first, by a conditional write that sets
 * `resumedAs` (only on a canceled one that has none) and moves the family's place to the new id
 * in the same transaction (only while the place is still the canceled one's and its paid time
 * has not run out, so a checkout cannot take it meanwhile). The new subscription's id is derived
 * from the canceled one's: that is the idempotency key at the gateway, which refuses a second
 * subscription with the same id, so a double click, a second tab or a retry after a lost answer
 * finds the one subscription instead of making another. The webhook cannot make one either: it
 * only applies the gateway's state to a copy we already have.
 */
import { createHash } from 'node:crypto';
import { toDecimalAmount } from '../../../shared/payments/money';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import { isConditionalCheckFailed } from '../db/errors';
import { Conflict } from '../errors';
import { endOfPaidDay } from './entitlement';
import { type GatewaySubscription, type PaymentGateway, SubscriptionIdTaken } from './gateway';
import { LIVE_WHILE_RENEWING, planFamilyOf } from './subscription-slots';
import { stateFromGateway } from './subscription-sync';

const DAY_MS = 86_400_000;
/** How long a second request waits for the first one's resume before finishing it itself. */
const RESUME_WAIT_MS = 20_000;
const RESUME_POLL_MS = 150;

/** The gateway's id of the subscription that resumes this one: letters, digits, - and _, 34 long, however often a plan is resumed. */
export const resumedSubscriptionIdFor = (subscriptionId: string) =>
  `r_${createHash('sha256').update(subscriptionId).digest('base64url').slice(0, 32)}`;

/** The day after the paid time: when a resumed subscription is first charged. */
export const resumeBillingDateOf = (paidThroughDate: string) =>
  new Date(Date.parse(`${paidThroughDate}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);

/** Whether a subscription can be resumed now: canceled, never resumed, with paid time left. */
export function canResume(
  subscription: Pick<SubscriptionItem, 'status' | 'paidThroughDate' | 'resumedAs'>,
  now: Date,
): subscription is typeof subscription & { paidThroughDate: string } {
  return (
    subscription.status === 'Canceled' &&
    subscription.resumedAs === undefined &&
    subscription.paidThroughDate !== undefined &&
    now.getTime() < endOfPaidDay(subscription.paidThroughDate).getTime()
  );
}

export class ResumePeriodOver extends Conflict {
  constructor() {
    super('The time you paid for has ended, so this plan can no longer be resumed: subscribe again at checkout.');
  }
}

export class NotResumable extends Conflict {
  constructor() {
    super('Only a canceled plan with paid time left can be resumed.');
  }
}

/** What resuming answered: the subscription that resumes the canceled one, and whether this call stored it. */
export interface ResumeOutcome {
  subscription: SubscriptionItem;
  /**
   * True for exactly one call per resume, the one whose write stored the new subscription: it
   * tells the subscriber. Repeats, racing calls and a subscription already active are false.
   */
  resumedNow: boolean;
}

/**
 * Resumes the canceled subscription, once; answers the subscription that resumes it (the same
 * one to every caller). A subscription that is not canceled is answered as it is.
 */
export async function resumeOnce(
  db: Db,
  gateway: PaymentGateway,
  subscription: SubscriptionItem,
  now: () => Date,
): Promise<ResumeOutcome> {
  if (subscription.resumedAs) return finishResume(db, gateway, subscription, subscription.resumedAs, now, true);
  if (subscription.status === 'Active' || subscription.status === 'Pending') return { subscription, resumedNow: false };
  if (subscription.status !== 'Canceled' || !subscription.paidThroughDate) throw new NotResumable();
  if (!canResume(subscription, now())) throw new ResumePeriodOver();
  const resumedId = resumedSubscriptionIdFor(subscription.subscriptionId);
  if (await claimResume(db, subscription, resumedId, now())) {
    return finishResume(db, gateway, subscription, resumedId, now, false);
  }
  // Another request claimed it first (or the plan changed meanwhile): decide on what is there now.
  const { data: current } = await db.entities.subscription
    .get({ subscriptionId: subscription.subscriptionId })
    .go({ consistent: true });
  if (current?.resumedAs) return finishResume(db, gateway, current, current.resumedAs, now, true);
  if (current && current.status === 'Canceled' && !canResume(current, now())) throw new ResumePeriodOver();
  throw new Conflict('Your plan changed meanwhile: reload the page to see it.');
}

/** The claim: `resumedAs` on the canceled subscription, and the family's place, in one transaction. */
async function claimResume(db: Db, subscription: SubscriptionItem, resumedId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const slotKey = {
    customerId: subscription.customerId,
    sellerId: subscription.sellerId,
    family: planFamilyOf(subscription),
  };
  const { data: slot } = await db.entities.subscriptionSlot.get(slotKey).go({ consistent: true });
  const result = await db.transaction
    .write(({ subscription: subscriptions, subscriptionSlot }) => [
      subscriptions
        .patch({ subscriptionId: subscription.subscriptionId })
        .set({ resumedAs: resumedId, updatedAt: at })
        .where((attributes, { eq, notExists }) => `${eq(attributes.status, 'Canceled')} AND ${notExists(attributes.resumedAs)}`)
        .commit(),
      // A subscription older than places has none: then the claim on the subscription is the whole claim.
      ...(slot
        ? [
            subscriptionSlot
              .patch(slotKey)
              .set({ subscriptionId: resumedId, liveUntil: LIVE_WHILE_RENEWING, updatedAt: at })
              .where(
                (attributes, { eq, gt }) =>
                  `${eq(attributes.subscriptionId, subscription.subscriptionId)} AND ${gt(attributes.liveUntil, at)}`,
              )
              .commit(),
          ]
        : []),
    ])
    .go();
  return !result.canceled;
}

/**
 * The subscription that resumes `canceled`: ours when it is stored; else made at the gateway (or
 * found there: its id is taken) and stored. A request that lost the claim waits a while for the
 * winner's, then finishes it itself: the gateway's id guard makes that safe.
 */
async function finishResume(
  db: Db,
  gateway: PaymentGateway,
  canceled: SubscriptionItem,
  resumedId: string,
  now: () => Date,
  wait: boolean,
): Promise<ResumeOutcome> {
  const deadline = now().getTime() + (wait ? RESUME_WAIT_MS : 0);
  for (;;) {
    const { data } = await db.entities.subscription.get({ subscriptionId: resumedId }).go({ consistent: true });
    if (data) return { subscription: data, resumedNow: false };
    if (now().getTime() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, RESUME_POLL_MS));
  }
  if (!canceled.paidThroughDate) throw new NotResumable();
  let started: GatewaySubscription;
  try {
    started = await gateway.createSubscription({
      id: resumedId,
      planId: canceled.gatewayPlanId,
      paymentMethodToken: canceled.paymentMethod.token,
      price: toDecimalAmount(canceled.priceMinor),
      firstBillingDate: resumeBillingDateOf(canceled.paidThroughDate),
    });
  } catch (error) {
    if (!(error instanceof SubscriptionIdTaken)) throw error;
    started = await gateway.findSubscription(resumedId);
  }
  const at = now();
  const { set } = stateFromGateway(started, undefined, at);
  const resumed: SubscriptionItem = {
    // The paid time carried over; the gateway's own, once it has charged, is newer.
    paidThroughDate: canceled.paidThroughDate,
    ...set,
    subscriptionId: resumedId,
    customerId: canceled.customerId,
    sellerId: canceled.sellerId,
    productId: canceled.productId,
    priceId: canceled.priceId,
    gatewayPlanId: canceled.gatewayPlanId,
    invoiceId: canceled.invoiceId,
    billingFrequencyMonths: canceled.billingFrequencyMonths,
    paymentMethod: canceled.paymentMethod,
    resumedFrom: canceled.subscriptionId,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
  };
  try {
    await db.entities.subscription.create(resumed).go();
    return { subscription: resumed, resumedNow: true };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Another request stored it first: the same subscription at the gateway.
    const { data } = await db.entities.subscription.get({ subscriptionId: resumedId }).go({ consistent: true });
    if (!data) throw error;
    return { subscription: data, resumedNow: false };
  }
}
