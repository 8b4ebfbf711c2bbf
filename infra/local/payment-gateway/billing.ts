import { randomBytes } from 'node:crypto';
import { formatCents, parseCents } from '../../../functions/lib/payments/amounts';
import type { SubscriptionWebhookKind, TransactionStatus } from '../../../functions/lib/payments/gateway';
import type {
  LocalSubscriptionCreateRequest,
  LocalSubscriptionUpdateRequest,
  LocalWireSubscription,
  LocalWireTransaction,
} from '../../../functions/lib/payments/local-gateway-wire';
import { addBillingMonths, addDays, dayOf, dayOfMonth, daysBetween, startOf } from './dates';
import { badRequest, invalid, refused } from './refusals';
import { chargeOutcome } from './sandbox-rules';
import type { GatewayState, MerchantState, StoredAddOn, StoredDiscount, StoredSubscription, StoredTransaction } from './state';

/**
 * The gateway's clock and its recurring billing, as Braintree's documents them: a subscription
 * charges its first cycle when created (or, given a later first billing date, is Pending with
 * nothing charged until that day), then on each billing date; a failed charge makes it
 * Past Due (the balance grows each cycle until a charge or a manual retry succeeds); it expires
 * after its plan's number of cycles, if any. Every change is stamped so a subscription's
 * `updatedAt` only ever grows, and every webhook-worthy change is reported as an event.
 */

/** Gateway time is real time plus an offset the tests move forward; it never goes back. */
export class GatewayClock {
  constructor(private readonly state: GatewayState) {}

  now(): Date {
    return new Date(Date.now() + this.state.clockOffsetMs);
  }

  today(): string {
    return dayOf(this.now());
  }

  advance(milliseconds: number): void {
    if (!Number.isSafeInteger(milliseconds) || milliseconds < 0) throw badRequest('The clock only moves forward.');
    this.state.clockOffsetMs += milliseconds;
  }
}

/** Something a merchant is told about by webhook (and the clock control lists). */
export interface GatewayEvent {
  merchantId: string;
  subscriptionId: string;
  kind: SubscriptionWebhookKind;
  /** ISO 8601, gateway time. */
  at: string;
  /** The charge behind a charged_successfully or charged_unsuccessfully. */
  transaction?: { id: string; amount: string; status: TransactionStatus };
}

/** Braintree's ids: short, lowercase letters and digits. */
export function newId(length: number, taken: (id: string) => boolean): string {
  for (;;) {
    const id = [...randomBytes(length)].map((byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('');
    if (/^[a-z]/.test(id) && !taken(id)) return id;
  }
}

/** Ids of subscriptions and customers: letters, digits, '-' and '_' (Braintree's rule). */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A stamp after both `candidate` and the subscription's last change. */
function stampFor(subscription: Pick<StoredSubscription, 'updatedAt'> | undefined, candidate: Date): string {
  const after = subscription ? new Date(subscription.updatedAt).getTime() + 1 : 0;
  return new Date(Math.max(candidate.getTime(), after)).toISOString();
}

export const succeeded = (transaction: Pick<StoredTransaction, 'status'>) =>
  transaction.status === 'submitted_for_settlement' || transaction.status === 'authorized';

/** Charges a vaulted card (the sandbox's test amounts decide) and records the transaction. */
export function charge(
  merchant: MerchantState,
  request: {
    paymentMethodToken: string;
    amountCents: number;
    at: string;
    currency: string;
    orderId?: string;
    subscriptionId?: string;
    discountCents?: number;
  },
): StoredTransaction {
  const method = merchant.paymentMethods.get(request.paymentMethodToken);
  const outcome = chargeOutcome(request.amountCents, { declining: method?.declining ?? false });
  const base = {
    id: newId(8, (id) => merchant.transactions.has(id)),
    amountCents: request.amountCents,
    currency: request.currency,
    createdAt: request.at,
    paymentMethodToken: request.paymentMethodToken,
    ...(request.orderId !== undefined ? { orderId: request.orderId } : {}),
    ...(request.subscriptionId !== undefined ? { subscriptionId: request.subscriptionId } : {}),
    ...(request.discountCents ? { discountCents: request.discountCents } : {}),
  };
  let transaction: StoredTransaction;
  switch (outcome.status) {
    case 'approved':
      transaction = {
        ...base,
        status: 'submitted_for_settlement',
        processorResponseCode: '1000',
        processorResponseText: 'Approved',
      };
      break;
    case 'processor_declined':
    case 'failed':
      transaction = { ...base, status: outcome.status, processorResponseCode: outcome.code, processorResponseText: outcome.text };
      break;
    case 'gateway_rejected':
      transaction = {
        ...base,
        status: 'gateway_rejected',
        processorResponseCode: '',
        processorResponseText: '',
        gatewayRejectionReason: outcome.reason,
      };
      break;
  }
  merchant.transactions.set(transaction.id, transaction);
  if (method?.declinesAfterFirstCharge && succeeded(transaction)) {
    method.declining = true;
    delete method.declinesAfterFirstCharge;
  }
  return transaction;
}

export function toWireTransaction(transaction: StoredTransaction): LocalWireTransaction {
  return {
    id: transaction.id,
    status: transaction.status,
    amount: formatCents(transaction.amountCents),
    currency: transaction.currency,
    createdAt: transaction.createdAt,
    processorResponseCode: transaction.processorResponseCode,
    processorResponseText: transaction.processorResponseText,
    ...(transaction.gatewayRejectionReason ? { gatewayRejectionReason: transaction.gatewayRejectionReason } : {}),
    ...(transaction.orderId !== undefined ? { orderId: transaction.orderId } : {}),
    ...(transaction.subscriptionId !== undefined ? { subscriptionId: transaction.subscriptionId } : {}),
    ...(transaction.type === 'credit' ? { type: 'credit' as const } : {}),
    ...(transaction.refundedTransactionId !== undefined ? { refundedTransactionId: transaction.refundedTransactionId } : {}),
    ...(transaction.discountCents ? { discountAmount: formatCents(transaction.discountCents) } : {}),
  };
}

/**
 * How long a submitted transaction takes to settle, by the gateway's clock. Braintree settles in
 * a batch about once a day (its sandbox too); a fixed day after submission keeps the local
 * gateway's tests exact: `advanceDays: 1` settles everything submitted before it.
 */
export const SETTLEMENT_DELAY_MS = 86_400_000;

/** Settles every transaction submitted for settlement a settlement delay or more ago (sales and refunds alike). */
export function settleDue(state: GatewayState, now: Date): void {
  for (const merchant of state.merchants.values()) {
    for (const transaction of merchant.transactions.values()) {
      if (transaction.status !== 'submitted_for_settlement') continue;
      if (Date.parse(transaction.createdAt) + SETTLEMENT_DELAY_MS <= now.getTime()) transaction.status = 'settled';
    }
  }
}

const isCredit = (transaction: StoredTransaction) => transaction.type === 'credit';

/**
 * A refund of a settled (or settling) sale, whole or `amountCents` of it, as Braintree refuses
 * and makes them: a credit transaction of its own (submitted for settlement), tied to the sale.
 */
export function refund(
  merchant: MerchantState,
  sale: StoredTransaction,
  request: { amountCents?: number; orderId?: string; at: string },
): StoredTransaction {
  if (isCredit(sale)) throw invalid('91505', 'base', 'Cannot refund credit.');
  if (sale.status !== 'settled' && sale.status !== 'settling') {
    throw invalid('91506', 'base', 'Cannot refund a transaction unless it is settled.');
  }
  const refunded = (sale.refundIds ?? [])
    .map((id) => merchant.transactions.get(id))
    .filter((credit): credit is StoredTransaction => credit !== undefined && credit.status !== 'voided')
    .reduce((sum, credit) => sum + credit.amountCents, 0);
  const left = sale.amountCents - refunded;
  if (left <= 0) throw invalid('91512', 'base', 'Transaction has already been completely refunded.');
  const amountCents = request.amountCents ?? left;
  if (amountCents <= 0) throw invalid('81531', 'amount', 'Amount must be greater than zero.');
  if (amountCents > left) throw invalid('91521', 'amount', 'Refund amount is too large.');
  const credit: StoredTransaction = {
    id: newId(8, (id) => merchant.transactions.has(id)),
    status: 'submitted_for_settlement',
    amountCents,
    currency: sale.currency,
    createdAt: request.at,
    paymentMethodToken: sale.paymentMethodToken,
    processorResponseCode: '1002',
    processorResponseText: 'Processed',
    type: 'credit',
    refundedTransactionId: sale.id,
    ...(request.orderId !== undefined ? { orderId: request.orderId } : {}),
  };
  merchant.transactions.set(credit.id, credit);
  sale.refundIds = [...(sale.refundIds ?? []), credit.id];
  return credit;
}

/** A void of a transaction not settled yet (whole only), as Braintree refuses and makes them. */
export function voidTransaction(transaction: StoredTransaction): StoredTransaction {
  if (transaction.status !== 'authorized' && transaction.status !== 'submitted_for_settlement') {
    throw invalid(
      '91504',
      'base',
      'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.',
    );
  }
  transaction.status = 'voided';
  return transaction;
}

/** The 422 of a declined charge: the transaction and the processor's words, as Braintree answers. */
export function declinedCharge(transaction: StoredTransaction) {
  const message =
    transaction.status === 'gateway_rejected'
      ? `Gateway Rejected: ${transaction.gatewayRejectionReason ?? ''}`
      : transaction.processorResponseText;
  return refused([], { transaction: toWireTransaction(transaction) }, message);
}

export function toWireSubscription(
  merchant: MerchantState,
  subscription: StoredSubscription,
  today: string,
): LocalWireSubscription {
  const transactions = subscription.transactionIds
    .map((id) => merchant.transactions.get(id))
    .filter((transaction): transaction is StoredTransaction => transaction !== undefined)
    .reverse()
    .map(toWireTransaction);
  return {
    id: subscription.id,
    planId: subscription.planId,
    status: subscription.status,
    price: formatCents(subscription.priceCents),
    currency: subscription.currency,
    paymentMethodToken: subscription.paymentMethodToken,
    billingPeriodStartDate: subscription.billingPeriodStartDate,
    billingPeriodEndDate: subscription.billingPeriodEndDate,
    paidThroughDate: subscription.paidThroughDate,
    nextBillingDate: subscription.nextBillingDate,
    billingFrequency: subscription.billingFrequency,
    currentBillingCycle: subscription.currentBillingCycle,
    failureCount: subscription.failureCount,
    balance: signedCents(subscription.balanceCents),
    daysPastDue:
      subscription.status === 'Past Due' && subscription.pastDueSince
        ? Math.max(0, daysBetween(subscription.pastDueSince, today))
        : 0,
    addOns: subscription.addOns.map((addOn) => ({
      id: addOn.id,
      amount: formatCents(addOn.amountCents),
      quantity: addOn.quantity,
    })),
    // As Braintree lists them: each with the cycles it has applied to so far.
    discounts: (subscription.discounts ?? []).filter(applies).map((discount) => ({
      id: discount.id,
      amount: formatCents(discount.amountCents),
      numberOfBillingCycles: discount.numberOfBillingCycles,
      currentBillingCycle: discount.appliedCycles,
    })),
    transactions,
    updatedAt: subscription.updatedAt,
    billingDayOfMonth: subscription.billingDayOfMonth,
    firstBillingDate: subscription.firstBillingDate,
    numberOfBillingCycles: subscription.numberOfBillingCycles ?? null,
    createdAt: subscription.createdAt,
  };
}

/** A balance as Braintree writes it: "-1.50" for a credit. */
const signedCents = (cents: number) => (cents < 0 ? `-${formatCents(-cents)}` : formatCents(cents));

const applies = (discount: StoredDiscount) =>
  discount.numberOfBillingCycles === null || discount.appliedCycles < discount.numberOfBillingCycles;

/** What one cycle costs: the price and every add-on times its quantity, less the discounts still applying (never below 0). */
const cycleCents = (subscription: Pick<StoredSubscription, 'priceCents' | 'addOns' | 'discounts'>) =>
  Math.max(
    0,
    subscription.addOns.reduce((sum, addOn) => sum + addOn.amountCents * addOn.quantity, subscription.priceCents) -
      (subscription.discounts ?? []).filter(applies).reduce((sum, discount) => sum + discount.amountCents, 0),
  );

/** What the discounts still applying take off one cycle: never more than the cycle costs before them. */
const cycleDiscountCents = (subscription: Pick<StoredSubscription, 'priceCents' | 'addOns' | 'discounts'>) =>
  Math.min(
    subscription.addOns.reduce((sum, addOn) => sum + addOn.amountCents * addOn.quantity, subscription.priceCents),
    (subscription.discounts ?? []).filter(applies).reduce((sum, discount) => sum + discount.amountCents, 0),
  );

/** A cycle was billed: each discount that applied to it has one cycle fewer to go. */
function countDiscountedCycle(subscription: Pick<StoredSubscription, 'discounts'>): void {
  for (const discount of subscription.discounts ?? []) if (applies(discount)) discount.appliedCycles += 1;
}

function discountsToAdd(merchant: MerchantState, additions: unknown): StoredDiscount[] {
  if (additions === undefined) return [];
  if (!Array.isArray(additions)) throw badRequest('discounts.add must be a list.');
  const added: StoredDiscount[] = [];
  for (const addition of additions as unknown[]) {
    const { inheritedFromId, amount, numberOfBillingCycles, neverExpires } = (addition ?? {}) as Record<string, unknown>;
    if (typeof inheritedFromId !== 'string' || inheritedFromId === '') {
      throw invalid('92014', 'inherited_from_id', 'Inherited From ID is required.');
    }
    // A discount the merchant's Control Panel does not have: Braintree's validation error, nothing charged.
    if (merchant.missingDiscountIds?.includes(inheritedFromId)) {
      throw invalid('92013', 'inherited_from_id', 'Inherited From ID is invalid.');
    }
    if (added.some((discount) => discount.id === inheritedFromId)) {
      throw invalid('91911', 'discounts', 'Cannot add duplicate add-on or discount.');
    }
    if (neverExpires === true && numberOfBillingCycles !== undefined) {
      throw invalid('92019', 'number_of_billing_cycles', 'Cannot specify both number of billing cycles and never expires.');
    }
    if (
      neverExpires !== true &&
      (typeof numberOfBillingCycles !== 'number' || !Number.isInteger(numberOfBillingCycles) || numberOfBillingCycles < 1)
    ) {
      throw invalid('92016', 'number_of_billing_cycles', 'Number of billing cycles must be a number greater than zero.');
    }
    added.push({
      id: inheritedFromId,
      amountCents: amountCents(amount, '92002', 'amount', 'Amount is an invalid format.'),
      numberOfBillingCycles: neverExpires === true ? null : (numberOfBillingCycles as number),
      appliedCycles: 0,
    });
  }
  return added;
}

function amountCents(value: unknown, code: string, attribute: string, message: string): number {
  const cents = typeof value === 'string' ? parseCents(value) : undefined;
  if (cents === undefined) throw invalid(code, attribute, message);
  return cents;
}

function quantityOf(value: unknown): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000) {
    throw invalid('92010', 'quantity', 'Quantity must be greater than zero.');
  }
  return value;
}

function addOnsToAdd(additions: unknown): StoredAddOn[] {
  if (additions === undefined) return [];
  if (!Array.isArray(additions)) throw badRequest('addOns.add must be a list.');
  const added: StoredAddOn[] = [];
  for (const addition of additions as unknown[]) {
    const { inheritedFromId, amount, quantity } = (addition ?? {}) as Record<string, unknown>;
    if (typeof inheritedFromId !== 'string' || inheritedFromId === '') {
      throw invalid('92014', 'inherited_from_id', 'Inherited From ID is required.');
    }
    if (added.some((addOn) => addOn.id === inheritedFromId)) {
      throw invalid('91911', 'add_ons', 'Cannot add duplicate add-on or discount.');
    }
    added.push({
      id: inheritedFromId,
      amountCents: amountCents(amount, '92002', 'amount', 'Amount is an invalid format.'),
      quantity: quantityOf(quantity),
    });
  }
  return added;
}

/**
 * Starts a subscription and charges its first cycle at once. A declined first charge is answered
 * with its transaction and leaves no subscription, as at Braintree.
 */
export function createSubscription(
  merchant: MerchantState,
  request: LocalSubscriptionCreateRequest,
  now: Date,
  events: GatewayEvent[],
): StoredSubscription {
  const { id, planId, paymentMethodToken } = request;
  if (typeof id !== 'string' || !ID_PATTERN.test(id) || id.length > 255) {
    throw invalid('81906', 'id', "ID is invalid (use only letters, numbers, '-', and '_').");
  }
  if (merchant.subscriptions.has(id)) throw invalid('81902', 'id', 'ID has already been taken.');
  const plan = typeof planId === 'string' ? merchant.plans.get(planId) : undefined;
  if (!plan) throw invalid('91904', 'plan_id', 'Plan ID is invalid.');
  if (typeof paymentMethodToken !== 'string' || !merchant.paymentMethods.has(paymentMethodToken)) {
    throw invalid('91903', 'payment_method_token', 'Payment method token is invalid.');
  }
  const priceCents =
    request.price === undefined
      ? (parseCents(plan.price) ?? 0)
      : amountCents(request.price, '81904', 'price', 'Price is an invalid format.');
  if (request.addOns !== undefined && (typeof request.addOns !== 'object' || request.addOns === null)) {
    throw badRequest('addOns must be an object with an add list.');
  }
  const addOns = addOnsToAdd(request.addOns?.add);
  if (request.discounts !== undefined && (typeof request.discounts !== 'object' || request.discounts === null)) {
    throw badRequest('discounts must be an object with an add list.');
  }
  const discounts = discountsToAdd(merchant, request.discounts?.add);

  const today = dayOf(now);
  const firstBillingDate = request.firstBillingDate;
  if (firstBillingDate !== undefined) {
    if (typeof firstBillingDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(firstBillingDate)) {
      throw invalid('91916', 'first_billing_date', 'First Billing Date is invalid.');
    }
    if (firstBillingDate < today) throw invalid('91916', 'first_billing_date', 'First Billing Date cannot be in the past.');
  }
  if (firstBillingDate !== undefined && firstBillingDate > today) {
    // As at Braintree: Pending, nothing charged now, no paid-through date; the first cycle is billed that day.
    const pending: StoredSubscription = {
      id,
      planId: plan.id,
      status: 'Pending',
      priceCents,
      currency: plan.currency,
      paymentMethodToken,
      billingDayOfMonth: dayOfMonth(firstBillingDate),
      billingFrequency: plan.billingFrequencyMonths,
      ...(plan.numberOfBillingCycles !== undefined ? { numberOfBillingCycles: plan.numberOfBillingCycles } : {}),
      firstBillingDate,
      billingPeriodStartDate: null,
      billingPeriodEndDate: null,
      paidThroughDate: null,
      nextBillingDate: firstBillingDate,
      currentBillingCycle: 0,
      failureCount: 0,
      balanceCents: 0,
      pastDueSince: null,
      addOns,
      discounts,
      transactionIds: [],
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    merchant.subscriptions.set(id, pending);
    return pending;
  }
  const at = now.toISOString();
  const amount = cycleCents({ priceCents, addOns, discounts });
  const discountCents = cycleDiscountCents({ priceCents, addOns, discounts });
  countDiscountedCycle({ discounts });
  const transaction =
    amount > 0
      ? charge(merchant, {
          paymentMethodToken,
          amountCents: amount,
          at,
          currency: plan.currency,
          subscriptionId: id,
          discountCents,
        })
      : undefined;
  if (transaction && !succeeded(transaction)) throw declinedCharge(transaction);

  const billingDayOfMonth = dayOfMonth(today);
  const nextBillingDate = addBillingMonths(today, plan.billingFrequencyMonths, billingDayOfMonth);
  const subscription: StoredSubscription = {
    id,
    planId: plan.id,
    status: 'Active',
    priceCents,
    currency: plan.currency,
    paymentMethodToken,
    billingDayOfMonth,
    billingFrequency: plan.billingFrequencyMonths,
    ...(plan.numberOfBillingCycles !== undefined ? { numberOfBillingCycles: plan.numberOfBillingCycles } : {}),
    firstBillingDate: today,
    billingPeriodStartDate: today,
    billingPeriodEndDate: addDays(nextBillingDate, -1),
    paidThroughDate: addDays(nextBillingDate, -1),
    nextBillingDate,
    currentBillingCycle: 1,
    failureCount: 0,
    balanceCents: 0,
    pastDueSince: null,
    addOns,
    discounts,
    transactionIds: transaction ? [transaction.id] : [],
    createdAt: at,
    updatedAt: at,
  };
  merchant.subscriptions.set(id, subscription);
  events.push({ merchantId: merchant.id, subscriptionId: id, kind: 'subscription_went_active', at });
  events.push({
    merchantId: merchant.id,
    subscriptionId: id,
    kind: 'subscription_charged_successfully',
    at,
    ...(transaction
      ? { transaction: { id: transaction.id, amount: formatCents(transaction.amountCents), status: transaction.status } }
      : {}),
  });
  return subscription;
}

/** One billing date of one subscription: expire it, or open the next cycle and charge it. */
function billCycle(merchant: MerchantState, subscription: StoredSubscription, due: string, events: GatewayEvent[]): void {
  const at = stampFor(subscription, startOf(due));
  const event = (kind: SubscriptionWebhookKind, transaction?: StoredTransaction) =>
    events.push({
      merchantId: merchant.id,
      subscriptionId: subscription.id,
      kind,
      at,
      ...(transaction
        ? { transaction: { id: transaction.id, amount: formatCents(transaction.amountCents), status: transaction.status } }
        : {}),
    });
  subscription.updatedAt = at;
  if (
    subscription.numberOfBillingCycles !== undefined &&
    subscription.currentBillingCycle >= subscription.numberOfBillingCycles
  ) {
    subscription.status = 'Expired';
    subscription.nextBillingDate = null;
    event('subscription_expired');
    return;
  }
  const next = addBillingMonths(due, subscription.billingFrequency, subscription.billingDayOfMonth);
  subscription.currentBillingCycle += 1;
  subscription.billingPeriodStartDate = due;
  subscription.billingPeriodEndDate = addDays(next, -1);
  subscription.nextBillingDate = next;
  // A past-due balance is charged with the new cycle: it grows each cycle until a charge succeeds.
  // A credit (a negative balance, from a prorated decrease) is used up first: a cycle it covers
  // whole is not charged at all (Braintree shows a skipped charge), and what is left carries on.
  const amount = subscription.balanceCents + cycleCents(subscription);
  const discountCents = cycleDiscountCents(subscription);
  countDiscountedCycle(subscription);
  if (amount <= 0) {
    subscription.balanceCents = amount;
    subscription.paidThroughDate = subscription.billingPeriodEndDate;
    event('subscription_charged_successfully');
    return;
  }
  const transaction = charge(merchant, {
    paymentMethodToken: subscription.paymentMethodToken,
    amountCents: amount,
    at,
    currency: subscription.currency,
    subscriptionId: subscription.id,
    discountCents,
  });
  subscription.transactionIds.push(transaction.id);
  if (succeeded(transaction)) {
    const wasPastDue = subscription.status === 'Past Due';
    const wasPending = subscription.status === 'Pending';
    subscription.balanceCents = 0;
    subscription.failureCount = 0;
    subscription.paidThroughDate = subscription.billingPeriodEndDate;
    subscription.status = 'Active';
    subscription.pastDueSince = null;
    event('subscription_charged_successfully', transaction);
    if (wasPastDue || wasPending) event('subscription_went_active');
    return;
  }
  subscription.balanceCents = amount;
  subscription.failureCount += 1;
  event('subscription_charged_unsuccessfully', transaction);
  if (subscription.status === 'Active' || subscription.status === 'Pending') {
    subscription.status = 'Past Due';
    subscription.pastDueSince = due;
    event('subscription_went_past_due');
  }
}

/**
 * Bills every billing date that has come, in the order they fell (across merchants), as many
 * cycles as each subscription missed. Returns nothing; what happened is added to `events`.
 */
export function runDueBillings(state: GatewayState, today: string, events: GatewayEvent[]): void {
  for (;;) {
    let earliest: { merchant: MerchantState; subscription: StoredSubscription; due: string } | undefined;
    for (const merchant of state.merchants.values()) {
      for (const subscription of merchant.subscriptions.values()) {
        const due = subscription.nextBillingDate;
        const bills = subscription.status === 'Active' || subscription.status === 'Past Due' || subscription.status === 'Pending';
        if (!bills || due === null || due > today) continue;
        if (!earliest || due < earliest.due) earliest = { merchant, subscription, due };
      }
    }
    if (!earliest) return;
    billCycle(earliest.merchant, earliest.subscription, earliest.due, events);
  }
}

/** A manual retry of a past-due subscription's balance (or the amount given). */
export function retryCharge(
  merchant: MerchantState,
  subscription: StoredSubscription,
  request: { amount?: unknown },
  now: Date,
  events: GatewayEvent[],
): StoredTransaction {
  if (subscription.status !== 'Past Due') {
    throw invalid('91531', 'subscription_id', 'Subscription status must be Past Due in order to retry.');
  }
  const amount =
    request.amount === undefined || request.amount === null
      ? subscription.balanceCents
      : amountCents(request.amount, '81503', 'amount', 'Amount is an invalid format.');
  if (amount <= 0) throw invalid('81531', 'amount', 'Amount must be greater than zero.');
  const at = stampFor(subscription, now);
  const transaction = charge(merchant, {
    paymentMethodToken: subscription.paymentMethodToken,
    amountCents: amount,
    at,
    currency: subscription.currency,
    subscriptionId: subscription.id,
  });
  subscription.transactionIds.push(transaction.id);
  subscription.updatedAt = at;
  // Braintree sends no charged_unsuccessfully for a manual retry, and counts no failure.
  if (!succeeded(transaction)) throw declinedCharge(transaction);
  subscription.balanceCents = Math.max(0, subscription.balanceCents - amount);
  if (subscription.balanceCents === 0) {
    subscription.status = 'Active';
    subscription.failureCount = 0;
    subscription.pastDueSince = null;
    subscription.paidThroughDate = subscription.billingPeriodEndDate;
    events.push({ merchantId: merchant.id, subscriptionId: subscription.id, kind: 'subscription_went_active', at });
  }
  return transaction;
}

function refuseEditOfEnded(subscription: StoredSubscription): void {
  if (subscription.status === 'Canceled')
    throw invalid('81901', 'status', 'Subscription has been canceled and cannot be updated.');
  if (subscription.status === 'Expired') throw invalid('81910', 'status', 'Subscription has expired and cannot be updated.');
}

/** Options of an update, as Braintree takes them (prorateCharges, revertSubscriptionOnProrationFailure). */
function updateOptionsOf(options: unknown): { prorate: boolean; revertOnFailure: boolean } {
  if (options === undefined) return { prorate: false, revertOnFailure: true };
  if (typeof options !== 'object' || options === null) throw badRequest('options must be an object.');
  const { prorateCharges, revertSubscriptionOnProrationFailure } = options as Record<string, unknown>;
  for (const [name, value] of Object.entries({ prorateCharges, revertSubscriptionOnProrationFailure })) {
    if (value !== undefined && typeof value !== 'boolean') throw badRequest(`options.${name} must be true or false.`);
  }
  return { prorate: prorateCharges === true, revertOnFailure: revertSubscriptionOnProrationFailure !== false };
}

/**
 * The prorated part of a change of the cycle's amount from `before` to `after` cents, on `today`:
 * the difference times the days left in the cycle after today, over the cycle's days, rounded to
 * the cent (half away from zero). Positive is owed now, negative a credit. Zero when the
 * subscription has no current cycle.
 */
export function proratedCents(subscription: StoredSubscription, before: number, after: number, today: string): number {
  const { billingPeriodStartDate: start, billingPeriodEndDate: end, nextBillingDate: next } = subscription;
  if (!start || !end || !next || after === before) return 0;
  const cycleDays = daysBetween(start, next);
  const daysLeft = Math.min(Math.max(daysBetween(today, end), 0), cycleDays);
  if (cycleDays <= 0 || daysLeft === 0) return 0;
  const difference = after - before;
  return Math.sign(difference) * Math.round((Math.abs(difference) * daysLeft) / cycleDays);
}

/**
 * Changes the card, the price or the add-ons. Without proration (Braintree's default for a
 * merchant who has not turned it on) the next cycle's charge uses them and nothing is charged now.
 * With `options.prorateCharges`, as Braintree documents it: a higher cycle amount (price plus
 * add-ons) charges the prorated difference for the rest of the cycle at once, less any credit
 * on the balance; the transaction joins the subscription's. If that charge is declined, the
 * subscription is left as it was and the decline is answered (422 with the transaction), unless
 * `revertSubscriptionOnProrationFailure` is false: then the change is kept and the amount goes
 * on the balance, to be charged with the next cycle. A lower amount credits the prorated
 * difference to the balance (negative), which later charges use up.
 */
export function updateSubscription(
  merchant: MerchantState,
  subscription: StoredSubscription,
  request: LocalSubscriptionUpdateRequest,
  now: Date,
): void {
  refuseEditOfEnded(subscription);
  const options = updateOptionsOf(request.options);
  const pastDue = subscription.status === 'Past Due';
  if (request.paymentMethodToken !== undefined) {
    if (typeof request.paymentMethodToken !== 'string' || !merchant.paymentMethods.has(request.paymentMethodToken)) {
      throw invalid('91903', 'payment_method_token', 'Payment method token is invalid.');
    }
  }
  const priceCents =
    request.price === undefined ? undefined : amountCents(request.price, '81904', 'price', 'Price is an invalid format.');
  if (pastDue && priceCents !== undefined && priceCents !== subscription.priceCents) {
    throw invalid('91920', 'base', 'Cannot edit price changing fields on past due subscription.');
  }
  const changes = request.addOns;
  if (changes !== undefined && (typeof changes !== 'object' || changes === null)) throw badRequest('addOns must be an object.');
  const added = addOnsToAdd(changes?.add);
  const updates = Array.isArray(changes?.update) ? (changes.update as unknown[]) : [];
  const removals = Array.isArray(changes?.remove) ? (changes.remove as unknown[]) : [];
  if (pastDue && added.length + updates.length + removals.length > 0) {
    throw invalid('92022', 'add_ons', 'Cannot edit modifications on past due subscription.');
  }
  const addOns = subscription.addOns.map((addOn) => ({ ...addOn }));
  for (const addOn of added) {
    if (addOns.some((existing) => existing.id === addOn.id))
      throw invalid('91911', 'add_ons', 'Cannot add duplicate add-on or discount.');
    addOns.push(addOn);
  }
  for (const update of updates) {
    const { existingId, amount, quantity } = (update ?? {}) as Record<string, unknown>;
    const existing = addOns.find((addOn) => addOn.id === existingId);
    if (!existing) throw invalid('92011', 'existing_id', 'Existing ID is invalid.');
    if (amount !== undefined) existing.amountCents = amountCents(amount, '92002', 'amount', 'Amount is an invalid format.');
    if (quantity !== undefined) existing.quantity = quantityOf(quantity);
  }
  for (const id of removals) {
    const index = addOns.findIndex((addOn) => addOn.id === id);
    if (index < 0) throw invalid('92016', 'add_ons', 'ID to remove is not present.');
    addOns.splice(index, 1);
  }
  const paymentMethodToken = request.paymentMethodToken ?? subscription.paymentMethodToken;
  const newPriceCents = priceCents ?? subscription.priceCents;
  let balanceCents = subscription.balanceCents;
  let prorated: StoredTransaction | undefined;
  if (options.prorate && subscription.status === 'Active') {
    const difference = proratedCents(
      subscription,
      cycleCents(subscription),
      cycleCents({ priceCents: newPriceCents, addOns }),
      dayOf(now),
    );
    // A credit already on the balance pays for an increase first.
    const due = balanceCents + difference;
    if (difference > 0 && due > 0) {
      prorated = charge(merchant, {
        paymentMethodToken,
        amountCents: due,
        at: now.toISOString(),
        currency: subscription.currency,
        subscriptionId: subscription.id,
      });
      if (succeeded(prorated)) balanceCents = 0;
      else if (options.revertOnFailure) throw declinedCharge(prorated);
      else balanceCents = due;
    } else {
      balanceCents = due;
    }
  }
  subscription.paymentMethodToken = paymentMethodToken;
  subscription.priceCents = newPriceCents;
  subscription.addOns = addOns;
  subscription.balanceCents = balanceCents;
  if (prorated) subscription.transactionIds.push(prorated.id);
  subscription.updatedAt = stampFor(subscription, now);
}

export function cancelSubscription(
  merchant: MerchantState,
  subscription: StoredSubscription,
  now: Date,
  events: GatewayEvent[],
): void {
  if (subscription.status === 'Canceled') throw invalid('81905', 'status', 'Subscription has already been canceled.');
  if (subscription.status === 'Expired') throw invalid('81910', 'status', 'Subscription has expired and cannot be updated.');
  const at = stampFor(subscription, now);
  subscription.status = 'Canceled';
  subscription.nextBillingDate = null;
  subscription.updatedAt = at;
  events.push({ merchantId: merchant.id, subscriptionId: subscription.id, kind: 'subscription_canceled', at });
}
