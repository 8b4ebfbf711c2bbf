/**
 * The Pro plan's subscriptions as its routes use them: the caller's own (404 for anyone
 * else's), the gateway's state applied to our copy, and the subscriber told what changed.
 */
import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import type { PaymentItem } from '../../lib/db/entities/payment';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { Db } from '../../lib/db/service';
import { Conflict, NotFound } from '../../lib/errors';
import { graceEndsAt } from '../../lib/payments/entitlement';
import type { GatewaySubscription, PaymentMethodSummary } from '../../lib/payments/gateway';
import { confirmCancellation, sendReceipts, tellPaymentFailed, tellPaymentRecovered } from '../../lib/payments/payment-mail';
import { givesPro, readProSubscription } from '../../lib/payments/pro-plan-access';
import { canResume } from '../../lib/payments/subscription-resume';
import { syncSubscription } from '../../lib/payments/subscription-sync';
import { billingPageUrl, describeSubscription, proVoice } from './pro-offer';

/** Charges shown on the subscription page: two years of monthly ones. */
const PAYMENTS_SHOWN = 24;

export class SubscriptionNotFound extends NotFound {
  constructor() {
    super('No such subscription.');
  }
}

export async function requireOwnSubscription(db: Db, subscriptionId: string, customerId: string): Promise<SubscriptionItem> {
  const { data } = await db.entities.subscription.get({ subscriptionId }).go({ consistent: true });
  if (!data || data.customerId !== customerId) throw new SubscriptionNotFound();
  return data;
}

/**
 * Buying Pro twice is never what someone means: they are sent to their subscription instead.
 * The subscription `invoiceId` itself started is no reason to refuse: paying that invoice again
 * (a second tab, a retry) answers what the first payment did.
 */
export async function refuseWhenPro(db: Db, customerId: string, now: Date, invoiceId?: string): Promise<void> {
  const subscription = await readProSubscription(db, customerId);
  if (subscription && subscription.invoiceId !== invoiceId && givesPro(subscription, now)) {
    if (canResume(subscription, now)) {
      throw new Conflict(
        `Your canceled Pro plan is paid until ${subscription.paidThroughDate}: resume it on your subscription page, with nothing charged now.`,
      );
    }
    throw new Conflict('You are on Pro already: manage your plan on your subscription page.');
  }
}

export async function listRecentPayments(db: Db, customerId: string): Promise<PaymentItem[]> {
  const { data } = await db.entities.payment.query.byCustomer({ customerId }).go({ order: 'desc', limit: PAYMENTS_SHOWN });
  return data;
}

/**
 * Our copy takes the gateway's state (when it is newer), and the subscriber hears what it
 * means: a receipt per new charge, the failed renewal with the date Pro stops, that it is
 * active again, or that it is canceled. Answers the copy as it now is; null when we have no copy of it.
 */
export async function applyGatewayState(
  db: Db,
  gateway: GatewaySubscription,
  now: Date,
  paymentMethod?: PaymentMethodSummary,
): Promise<SubscriptionItem | null> {
  const { subscription, changes } = await syncSubscription(db, gateway, {
    now,
    ...(paymentMethod ? { paymentMethod } : {}),
    describeCharge: describeSubscription,
  });
  if (!subscription) return null;
  const description = describeSubscription(subscription);
  await sendReceipts(db, proVoice(), changes.newPayments, now);
  if (changes.becamePastDue) {
    const graceEnds = graceEndsAt(subscription, PAST_DUE_GRACE_DAYS);
    if (graceEnds)
      await tellPaymentFailed(db, subscription, { description, graceEndsAt: graceEnds, billingUrl: billingPageUrl(), now });
  }
  if (changes.recovered) await tellPaymentRecovered(db, subscription, description, now);
  // Whoever applies the cancellation first (the route, or the gateway's webhook racing it) confirms it, once.
  if (changes.applied && subscription.status === 'Canceled' && changes.previousStatus !== 'Canceled') {
    await confirmCancellation(db, proVoice(), subscription, { description, now });
  }
  return subscription;
}
