/**
 * What a customer changes on a subscription at its seller's gateway, the same for every seller:
 * a new card (which, on a past-due subscription, pays what is owed at once) and cancellation.
 * The seller's own sync (its applyGatewayState) then writes what the gateway answers, and tells
 * the customer.
 *
 * Paying a past-due balance is money moving, so it is claimed first, as an invoice is: a lease
 * on the subscription item taken by a conditional write. Of two tabs (or a double click) saving
 * a card at once, one charges the balance; the other waits for it and answers what came of it.
 */
import type { SubscriptionItem } from '../db/entities/subscription';
import { isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import { Conflict } from '../errors';
import { type GatewaySubscription, PaymentDeclined, type PaymentGateway, type PaymentMethodSummary } from './gateway';

/** Longer than a retried charge takes at the gateway. */
const BALANCE_CHARGE_LEASE_MS = 60_000;
const BALANCE_WAIT_MS = 20_000;
const BALANCE_POLL_MS = 150;

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
  request: {
    subscription: SubscriptionItem;
    customer: { id: string; email: string; name?: string };
    nonce: string;
    deviceData?: string | undefined;
    now: () => Date;
  },
): Promise<CardReplaced> {
  const { subscription, customer } = request;
  if (hasEnded(subscription)) throw new SubscriptionEnded();
  // The seller's own account keeps its own customers: the card is vaulted where it is charged.
  await gateway.ensureCustomer(customer);
  const card = await gateway.vaultPaymentMethod({
    customerId: customer.id,
    nonce: request.nonce,
    ...(request.deviceData ? { deviceData: request.deviceData } : {}),
  });
  const updated = await gateway.updateSubscription(subscription.subscriptionId, { paymentMethodToken: card.token });
  if (updated.status !== 'Past Due') return { updated, card, declined: null };
  // The new card pays what is owed at once: waiting for the gateway's next retry would leave the customer in doubt.
  const declined = await chargeBalanceOnce(db, gateway, subscription.subscriptionId, request.now);
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
  const lease = await claimBalanceCharge(db, subscriptionId, now());
  if (!lease) {
    await awaitBalanceCharge(db, subscriptionId, now);
    return null;
  }
  try {
    // Braintree's retry charges the balance of this subscription only; no charge of ours carries another id.
    await gateway.retrySubscriptionCharge(subscriptionId);
    return null;
  } catch (error) {
    if (error instanceof PaymentDeclined) return error;
    throw error;
  } finally {
    await releaseBalanceCharge(db, subscriptionId, lease);
  }
}

async function claimBalanceCharge(db: Db, subscriptionId: string, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + BALANCE_CHARGE_LEASE_MS).toISOString();
  try {
    await db.entities.subscription
      .patch({ subscriptionId })
      .set({ balanceChargeUntil: until })
      .where(
        (attributes, { lt, notExists }) =>
          `${notExists(attributes.balanceChargeUntil)} OR ${lt(attributes.balanceChargeUntil, at)}`,
      )
      .go();
    return until;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

async function releaseBalanceCharge(db: Db, subscriptionId: string, lease: string): Promise<void> {
  try {
    await db.entities.subscription
      .patch({ subscriptionId })
      .remove(['balanceChargeUntil'])
      .where((attributes, { eq }) => eq(attributes.balanceChargeUntil, lease))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Another request is charging the balance: its outcome is what the gateway answers once it is done. */
async function awaitBalanceCharge(db: Db, subscriptionId: string, now: () => Date): Promise<void> {
  const deadline = now().getTime() + BALANCE_WAIT_MS;
  for (;;) {
    const { data } = await db.entities.subscription.get({ subscriptionId }).go({ consistent: true });
    const held = data?.balanceChargeUntil;
    if (!held || held <= now().toISOString()) return;
    if (now().getTime() >= deadline) {
      throw new Conflict('What you owe is being paid in another tab right now. Reload the page in a moment to see the result.');
    }
    await new Promise((resolve) => setTimeout(resolve, BALANCE_POLL_MS));
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
