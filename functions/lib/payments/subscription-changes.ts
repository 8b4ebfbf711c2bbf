/**
 * What a customer changes on a subscription at its seller's gateway, the same for every seller:
 * a new card (which, on a past-due subscription, pays what is owed at once) and cancellation.
 * The seller's own sync (its applyGatewayState) then writes what the gateway answers, and tells
 * the customer.
 *
 * A change that charges money now (a past-due balance paid with the new card, a prorated add-on)
 * is claimed first, as an invoice is: a lease on the subscription item taken by a conditional
 * write (chargeOnce). Of two tabs (or a double click) making it at once, one charges; the other
 * waits for it and answers what came of it.
 */
import type { SubscriptionItem } from '../db/entities/subscription';
import { isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import { Conflict } from '../errors';
import { type GatewaySubscription, PaymentDeclined, type PaymentGateway, type PaymentMethodSummary } from './gateway';

/** Longer than one charging call takes at the gateway. */
const CHARGING_LEASE_MS = 60_000;
const CHARGING_WAIT_MS = 20_000;
const CHARGING_POLL_MS = 150;

const ENDED: ReadonlySet<SubscriptionItem['status']> = new Set(['Canceled', 'Expired']);

export const hasEnded = (subscription: Pick<SubscriptionItem, 'status'>) => ENDED.has(subscription.status);

export class SubscriptionEnded extends Conflict {
  constructor() {
    super('This subscription has ended: subscribe again to use a new card.');
  }
}

export interface CardReplaced {
  /** The gateway's subscription after the change (and the balance's charge). */
  updated: GatewaySubscription;
  card: PaymentMethodSummary;
  /** The new card was saved but declined for the balance owed. */
  declined: PaymentDeclined | null;
}

export async function replaceCard(
  db: Db,
  gateway: PaymentGateway,
  subscription: SubscriptionItem,
  customer: { id: string; email: string; name?: string },
  newCard: { paymentMethodNonce: string; deviceData?: string | undefined },
): Promise<CardReplaced> {
  if (hasEnded(subscription)) throw new SubscriptionEnded();
  // The seller's own account keeps its own customers: the card is vaulted where it is charged.
  await gateway.ensureCustomer(customer);
  const card = await gateway.vaultPaymentMethod({
    customerId: customer.id,
    nonce: newCard.paymentMethodNonce,
    ...(newCard.deviceData ? { deviceData: newCard.deviceData } : {}),
  });
  const updated = await gateway.updateSubscription(subscription.subscriptionId, { paymentMethodToken: card.token });
  if (updated.status !== 'Past Due') return { updated, card, declined: null };
  // The new card pays what is owed at once: waiting for the gateway's next retry would leave the customer in doubt.
  const declined = await chargeBalanceOnce(db, gateway, subscription.subscriptionId, () => new Date());
  return { updated: await gateway.findSubscription(subscription.subscriptionId), card, declined };
}

/** The answer when the new card is on the subscription but was declined for the balance. */
export function savedButDeclined(declined: PaymentDeclined, details?: Record<string, unknown>): PaymentDeclined {
  return new PaymentDeclined(declined.reason, `Your new card is saved, but it was declined too: ${declined.message}`, {
    cause: declined,
    ...(details ? { details } : {}),
  });
}

async function chargeBalanceOnce(
  db: Db,
  gateway: PaymentGateway,
  subscriptionId: string,
  now: () => Date,
): Promise<PaymentDeclined | null> {
  const outcome = await chargeOnce(db, subscriptionId, now, async () => {
    try {
      // Braintree's retry charges the balance of this subscription only.
      await gateway.retrySubscriptionCharge(subscriptionId);
      return null;
    } catch (error) {
      if (error instanceof PaymentDeclined) return error;
      throw error;
    }
  });
  return outcome.charged ? outcome.result : null;
}

/**
 * Runs `charge` (a gateway call that moves money on this subscription) while holding the
 * subscription's charging lease. When another request holds it, waits for that one to finish
 * instead, and answers `charged: false`: the caller reads the gateway's state it left.
 */
export async function chargeOnce<Result>(
  db: Db,
  subscriptionId: string,
  now: () => Date,
  charge: () => Promise<Result>,
): Promise<{ charged: true; result: Result } | { charged: false }> {
  const lease = await claimCharging(db, subscriptionId, now());
  if (!lease) {
    await awaitCharging(db, subscriptionId, now);
    return { charged: false };
  }
  try {
    return { charged: true, result: await charge() };
  } finally {
    await releaseCharging(db, subscriptionId, lease);
  }
}

async function claimCharging(db: Db, subscriptionId: string, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + CHARGING_LEASE_MS).toISOString();
  try {
    await db.entities.subscription
      .patch({ subscriptionId })
      .set({ chargingUntil: until })
      .where((attributes, { lt, notExists }) => `${notExists(attributes.chargingUntil)} OR ${lt(attributes.chargingUntil, at)}`)
      .go();
    return until;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

async function releaseCharging(db: Db, subscriptionId: string, lease: string): Promise<void> {
  try {
    await db.entities.subscription
      .patch({ subscriptionId })
      .remove(['chargingUntil'])
      .where((attributes, { eq }) => eq(attributes.chargingUntil, lease))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

async function awaitCharging(db: Db, subscriptionId: string, now: () => Date): Promise<void> {
  const deadline = now().getTime() + CHARGING_WAIT_MS;
  for (;;) {
    const { data } = await db.entities.subscription.get({ subscriptionId }).go({ consistent: true });
    const held = data?.chargingUntil;
    if (!held || held <= now().toISOString()) return;
    if (now().getTime() >= deadline) {
      throw new Conflict(
        'A payment for this subscription is being made in another tab right now. Reload the page in a moment to see the result.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, CHARGING_POLL_MS));
  }
}

/** Cancels at the gateway (no more charges; paid time is kept); null for one that ended already: canceling again changes nothing. */
export async function cancelAtGateway(
  gateway: PaymentGateway,
  subscription: SubscriptionItem,
): Promise<GatewaySubscription | null> {
  if (hasEnded(subscription)) return null;
  return gateway.cancelSubscription(subscription.subscriptionId);
}
