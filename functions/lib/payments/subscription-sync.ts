/**
 * Our copy of a subscription follows the gateway's, for every seller. Whatever tells us something
 * changed (a webhook, a card update, a cancel), the state written is the one the gateway answers
 * when asked, and a copy is replaced only by a later one (gatewayVersionOf): deliveries that
 * arrive late, twice or out of order can never roll a subscription back.
 */
import { fromDecimalAmount } from '../../../shared/payments/money';
import type { PaymentItem } from '../db/entities/payment';
import type { SubscriptionItem } from '../db/entities/subscription';
import { lostRace, retryContendedWrite } from '../contended-writes';
import { isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import type { GatewaySubscription, GatewayTransaction, PaymentMethodSummary } from './gateway';
import { PLATFORM_SELLER_ID } from './pro-plan-access';
import { subscriptionCountWrites } from './subscription-counts';
import { followSlot } from './subscription-slots';

const DAY_MS = 86_400_000;
/** Charges a sync looks at: a cycle makes one, a retry another; older ones were seen by earlier syncs. */
const RECENT_TRANSACTIONS = 5;
const PAID_STATUSES = new Set<GatewayTransaction['status']>(['authorized', 'submitted_for_settlement', 'settling', 'settled']);
const FAILED_STATUSES = new Set<GatewayTransaction['status']>(['processor_declined', 'gateway_rejected', 'failed']);

/** A balance may be negative (a credit); amounts never are. */
const signedMinor = (amount: string) =>
  amount.trim().startsWith('-') ? -fromDecimalAmount(amount.trim().slice(1)) : fromDecimalAmount(amount);

export const isPaid = (transaction: GatewayTransaction) => PAID_STATUSES.has(transaction.status);

/**
 * How far along the gateway's story a copy is, as a string that sorts in that order. Braintree
 * stamps changes to the second, so two states of one second carry one time: then a charge (which
 * adds a transaction) and an end (canceled or expired, after which nothing changes) tell which
 * came later.
 */
export function gatewayVersionOf(gateway: Pick<GatewaySubscription, 'updatedAt' | 'transactions' | 'status'>): string {
  const ended = gateway.status === 'Canceled' || gateway.status === 'Expired' ? 1 : 0;
  return `${new Date(gateway.updatedAt).toISOString()}|${String(gateway.transactions.length).padStart(6, '0')}|${ended}`;
}

/** What a sync changed that someone should hear about. */
export interface SubscriptionChanges {
  /** A renewal failed and the subscription is now past due (it was not before). */
  becamePastDue: boolean;
  /** It was past due and is active again. */
  recovered: boolean;
  /** Charges seen for the first time: one receipt each. */
  newPayments: PaymentItem[];
  /** This sync wrote the gateway's state (its conditional write won), moving the status from `previousStatus`. */
  applied: boolean;
  previousStatus: SubscriptionItem['status'] | null;
}

const NO_CHANGES: SubscriptionChanges = {
  becamePastDue: false,
  recovered: false,
  newPayments: [],
  applied: false,
  previousStatus: null,
};

/** When a past-due subscription's trouble started: its newest failed charge, or as many days ago as the gateway counts. */
function pastDueStart(gateway: GatewaySubscription, now: Date): string {
  const failed = gateway.transactions.find((transaction) => FAILED_STATUSES.has(transaction.status));
  if (failed) return failed.createdAt;
  return new Date(now.getTime() - gateway.daysPastDue * DAY_MS).toISOString();
}

/** The stored fields the gateway decides, from its answer (`previous` keeps what only we know). */
export function stateFromGateway(
  gateway: GatewaySubscription,
  previous: Pick<SubscriptionItem, 'status' | 'pastDueSince' | 'canceledAt'> | undefined,
  now: Date,
) {
  const pastDue = gateway.status === 'Past Due';
  const set = {
    status: gateway.status,
    priceMinor: fromDecimalAmount(gateway.price),
    currency: gateway.currency,
    failureCount: gateway.failureCount,
    // A decrease prorated by the gateway leaves a credit: a negative balance.
    balanceMinor: signedMinor(gateway.balance),
    gatewayVersion: gatewayVersionOf(gateway),
    ...(gateway.billingPeriodStartDate ? { billingPeriodStartDate: gateway.billingPeriodStartDate } : {}),
    ...(gateway.billingPeriodEndDate ? { billingPeriodEndDate: gateway.billingPeriodEndDate } : {}),
    ...(gateway.paidThroughDate ? { paidThroughDate: gateway.paidThroughDate } : {}),
    ...(gateway.nextBillingDate ? { nextBillingDate: gateway.nextBillingDate } : {}),
    ...(pastDue
      ? {
          pastDueSince:
            previous?.status === 'Past Due' && previous.pastDueSince ? previous.pastDueSince : pastDueStart(gateway, now),
        }
      : {}),
    ...(gateway.status === 'Canceled' ? { canceledAt: previous?.canceledAt ?? now.toISOString() } : {}),
  };
  const remove: ('nextBillingDate' | 'pastDueSince')[] = [];
  if (!gateway.nextBillingDate) remove.push('nextBillingDate');
  if (!pastDue) remove.push('pastDueSince');
  return { set, remove };
}

/** What a seller keeps besides the gateway's state, and how it records charges. */
export interface SyncOptions {
  now: Date;
  /** The card the caller just put on the subscription: shown from now on. */
  paymentMethod?: PaymentMethodSummary;
  /** Our copy as the caller read it (consistent), to save a read. */
  previous?: SubscriptionItem;
  /** How a charge reads in the customer's payments (recordPayments'); its product id unless told. */
  describeCharge?: (subscription: SubscriptionItem) => string;
  /** Fields of the seller's own that follow the gateway's state (a shop keeps its add-ons, named). */
  ownFields?: (gateway: GatewaySubscription, previous: SubscriptionItem) => Promise<Partial<SubscriptionItem>>;
  /** Records the gateway's new charges (recordPayments unless told); answers those recorded by this call. */
  recordCharges?: (subscription: SubscriptionItem, gateway: GatewaySubscription) => Promise<PaymentItem[]>;
}

/**
 * Writes the gateway's state over our copy when it is newer, and records its new charges.
 * Answers the copy as it now is (null when we have none: a subscription made outside the
 * product, or one whose checkout has not written it yet and will) and what changed.
 */
export async function syncSubscription(
  db: Db,
  gateway: GatewaySubscription,
  options: SyncOptions,
): Promise<{ subscription: SubscriptionItem | null; changes: SubscriptionChanges }> {
  const { now } = options;
  const previous =
    options.previous ?? (await db.entities.subscription.get({ subscriptionId: gateway.id }).go({ consistent: true })).data;
  if (!previous) return { subscription: null, changes: NO_CHANGES };
  const state = await writeNewerState(db, gateway, previous, now, options.ownFields);
  let subscription = state.subscription;
  const card = options.paymentMethod;
  if (card && subscription.paymentMethod.token !== card.token) {
    const { data } = await db.entities.subscription
      .patch({ subscriptionId: gateway.id })
      .set({ paymentMethod: card, updatedAt: now.toISOString() })
      .go({ response: 'all_new' });
    subscription = data as SubscriptionItem;
  }
  const newPayments = options.recordCharges
    ? await options.recordCharges(subscription, gateway)
    : await recordPayments(
        db,
        subscription,
        gateway.transactions,
        options.describeCharge?.(subscription) ?? subscription.productId,
      );
  const { applied, from } = state;
  return {
    subscription,
    changes: {
      becamePastDue: applied && subscription.status === 'Past Due' && from !== 'Past Due',
      recovered: applied && subscription.status === 'Active' && from === 'Past Due',
      newPayments,
      applied,
      previousStatus: from,
    },
  };
}

/**
 * Writes the gateway's state over our copy when it is newer. The write is conditional on the
 * copy it was computed from (its gatewayVersion): of two syncs of the same state (a webhook
 * racing the route that caused it), one writes and the other reads, so what only we stamp is
 * stamped once. A shop's dashboard counts move in the same transaction, from the status that
 * copy really had; the plan family's place follows the new state.
 *
 * A write that lost is decided again on the copy there now, under the one policy of optimistic
 * writes (retryContendedWrite). It writes our own records only, never the gateway. Given up, it
 * stays a server error and not TooBusy: the gateway's state has changed already (a charge, a
 * cancellation), so TooBusy's "nothing changed: please try again" would be untrue.
 */
async function writeNewerState(
  db: Db,
  gateway: GatewaySubscription,
  first: SubscriptionItem,
  now: Date,
  ownFields: SyncOptions['ownFields'],
): Promise<{ subscription: SubscriptionItem; from: SubscriptionItem['status']; applied: boolean }> {
  const version = gatewayVersionOf(gateway);
  let previous = first;
  const giveUp = (cause: unknown) => new Error(`The state of subscription ${gateway.id} could not be written`, { cause });
  const outcome = await retryContendedWrite({ what: 'changing this subscription', giveUp }, async () => {
    if (version <= previous.gatewayVersion) return { subscription: previous, from: previous.status, applied: false };
    const { set, remove } = stateFromGateway(gateway, previous, now);
    const changes = { ...set, ...(ownFields ? await ownFields(gateway, previous) : {}), updatedAt: now.toISOString() };
    const from = previous;
    const counted = from.sellerId !== PLATFORM_SELLER_ID;
    const result = await db.transaction
      .write(({ subscription, storeFigure }) => [
        subscription
          .patch({ subscriptionId: gateway.id })
          .set(changes)
          .remove(remove)
          .where((attributes, { eq }) => eq(attributes.gatewayVersion, from.gatewayVersion))
          .commit(),
        ...(counted ? subscriptionCountWrites({ storeFigure }, from, from.status, changes.status) : []),
      ])
      .go();
    if (!result.canceled) {
      const written: SubscriptionItem = { ...from, ...changes };
      for (const field of remove) delete written[field];
      return { subscription: written, from: from.status, applied: true };
    }
    // Another sync wrote first (or the transaction collided with one): decide again on what is there now.
    const { data: newer } = await db.entities.subscription.get({ subscriptionId: gateway.id }).go({ consistent: true });
    if (!newer) return { subscription: previous, from: previous.status, applied: false };
    previous = newer;
    // Another sync wrote this state or a later one: nothing left to write, and no pause to take.
    if (version <= newer.gatewayVersion) return { subscription: newer, from: newer.status, applied: false };
    return lostRace(result);
  });
  // Once, by the sync whose write applied the state, and outside the retried write.
  if (outcome.applied) await followSlot(db, outcome.subscription, now);
  return outcome;
}

/**
 * One payment item per successful charge, made with a conditional put: whoever writes it first
 * (the checkout, a webhook, a card update) sends its one receipt.
 */
export async function recordPayments(
  db: Db,
  subscription: SubscriptionItem,
  transactions: readonly GatewayTransaction[],
  description: string,
): Promise<PaymentItem[]> {
  const recorded: PaymentItem[] = [];
  for (const payment of paymentsOf(subscription, transactions, description)) {
    try {
      const { data } = await db.entities.payment.create(payment).go();
      recorded.push(data);
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }
  return recorded;
}

/** The payment records of a subscription's recent successful charges, not yet written. */
export function paymentsOf(
  subscription: SubscriptionItem,
  transactions: readonly GatewayTransaction[],
  description: string,
): PaymentItem[] {
  return transactions
    .slice(0, RECENT_TRANSACTIONS)
    .filter(isPaid)
    .map((transaction) => ({
      transactionId: transaction.id,
      customerId: subscription.customerId,
      sellerId: subscription.sellerId,
      subscriptionId: subscription.subscriptionId,
      invoiceId: subscription.invoiceId,
      description,
      amountMinor: fromDecimalAmount(transaction.amount),
      currency: transaction.currency,
      cardType: subscription.paymentMethod.cardType,
      last4: subscription.paymentMethod.last4,
      chargedAt: transaction.createdAt,
    }));
}
