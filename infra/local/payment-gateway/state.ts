import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewaySubscriptionStatus, TransactionStatus } from '../../../functions/lib/payments/gateway';
import type { LocalCardOutcome, LocalPlanAddOn } from '../../../shared/payments/local-gateway';

/**
 * Everything the local gateway knows, per merchant, and the file it lives in: one JSON file under
 * the data folder, written whole and atomically (a new file renamed over the old one) after each
 * change, and read back at start, so `npm start` keeps its subscriptions across restarts.
 * Money is whole cents; days are "YYYY-MM-DD" in the gateway's time zone (UTC).
 */

export interface LocalGatewayPlan {
  id: string;
  /** What the control panel calls it; the id when not given. */
  name?: string;
  /** Months in a cycle. */
  billingFrequencyMonths: number;
  /** The plan's price per cycle ("9.00"); a subscription may name its own. */
  price: string;
  currency: string;
  /** Cycles until a subscription expires (Braintree's "number of billing cycles"); forever when unset. */
  numberOfBillingCycles?: number;
  /** The add-ons the plan offers (a subscription names the ones it takes, at its own amounts); none when not given. */
  addOns?: readonly LocalPlanAddOn[];
}

export interface StoredCustomer {
  id: string;
  email: string;
  name?: string;
  createdAt: string;
}

export interface StoredCard {
  cardType: string;
  last4: string;
  bin: string;
  /** "MM". */
  expirationMonth: string;
  /** "YYYY". */
  expirationYear: string;
}

export interface StoredPaymentMethod extends StoredCard {
  token: string;
  customerId: string;
  /** Every charge is declined (the decline control, or the local "declines later" card once charged). */
  declining: boolean;
  /** The local "declines later" card: it starts declining once a charge has gone through. */
  declinesAfterFirstCharge?: boolean;
  createdAt: string;
}

/** A card the browser tokenized: usable once, for a few hours. */
export interface StoredNonce extends StoredCard {
  nonce: string;
  outcome: LocalCardOutcome;
  createdAt: string;
  expiresAt: string;
  consumed: boolean;
}

export interface StoredTransaction {
  id: string;
  status: TransactionStatus;
  amountCents: number;
  currency: string;
  createdAt: string;
  paymentMethodToken: string;
  orderId?: string;
  subscriptionId?: string;
  processorResponseCode: string;
  processorResponseText: string;
  gatewayRejectionReason?: string;
  /** 'credit' for a refund; a sale when absent (states saved before refunds existed). */
  type?: 'sale' | 'credit';
  /** A refund's sale. */
  refundedTransactionId?: string;
  /** A sale's refunds, oldest first. */
  refundIds?: string[];
  /** What a subscription's discounts took off this charge (Braintree's transaction.discounts), when any did. */
  discountCents?: number;
}

export interface StoredAddOn {
  id: string;
  amountCents: number;
  quantity: number;
}

/** A discount off a subscription's cycles: `appliedCycles` of its `numberOfBillingCycles` (null: every cycle) are billed. */
export interface StoredDiscount {
  id: string;
  amountCents: number;
  numberOfBillingCycles: number | null;
  appliedCycles: number;
}

export interface StoredSubscription {
  id: string;
  planId: string;
  status: GatewaySubscriptionStatus;
  priceCents: number;
  currency: string;
  paymentMethodToken: string;
  /** The day of the month it bills on (the first billing date's); a shorter month bills on its last day. */
  billingDayOfMonth: number;
  billingFrequency: number;
  numberOfBillingCycles?: number;
  firstBillingDate: string;
  billingPeriodStartDate: string | null;
  billingPeriodEndDate: string | null;
  paidThroughDate: string | null;
  /** When the next charge is due; null once it is canceled or expired. */
  nextBillingDate: string | null;
  currentBillingCycle: number;
  failureCount: number;
  /** What is owed; negative for a credit (a prorated decrease), which later charges use up. */
  balanceCents: number;
  /** The billing date whose charge failed first, while it is Past Due. */
  pastDueSince: string | null;
  addOns: StoredAddOn[];
  /** Absent on subscriptions stored before discounts were modelled: none. */
  discounts?: StoredDiscount[];
  /** Oldest first. */
  transactionIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface MerchantState {
  id: string;
  publicKey: string;
  privateKey: string;
  webhookUrl: string;
  /** The merchant account's currency: sales are in it. */
  currency: string;
  plans: Map<string, LocalGatewayPlan>;
  customers: Map<string, StoredCustomer>;
  paymentMethods: Map<string, StoredPaymentMethod>;
  nonces: Map<string, StoredNonce>;
  transactions: Map<string, StoredTransaction>;
  subscriptions: Map<string, StoredSubscription>;
  /**
   * Control Panel discounts the merchant does not have (POST /__control/merchants/{m}/discounts/{id}):
   * a subscription inheriting from one is refused (92013). Every other id is taken, as from a
   * merchant who made the product's discounts; absent: none missing.
   */
  missingDiscountIds?: string[];
}

export interface GatewayState {
  /** Gateway time is real time plus this (POST /__control/clock moves it forward). */
  clockOffsetMs: number;
  merchants: Map<string, MerchantState>;
}

const FILE_NAME = 'payment-gateway.json';
const FORMAT_VERSION = 1;

interface StoredFile {
  version: number;
  clockOffsetMs: number;
  merchants: {
    id: string;
    publicKey: string;
    privateKey: string;
    webhookUrl: string;
    currency: string;
    plans: LocalGatewayPlan[];
    customers: StoredCustomer[];
    paymentMethods: StoredPaymentMethod[];
    nonces: StoredNonce[];
    transactions: StoredTransaction[];
    subscriptions: StoredSubscription[];
    missingDiscountIds?: string[];
  }[];
}

export const emptyState = (): GatewayState => ({ clockOffsetMs: 0, merchants: new Map() });

export function emptyMerchant(
  fields: Pick<MerchantState, 'id' | 'publicKey' | 'privateKey' | 'webhookUrl' | 'currency'>,
): MerchantState {
  return {
    ...fields,
    plans: new Map(),
    customers: new Map(),
    paymentMethods: new Map(),
    nonces: new Map(),
    transactions: new Map(),
    subscriptions: new Map(),
  };
}

function byKey<T>(items: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  if (!Array.isArray(items)) throw new Error('a list is missing');
  return new Map(items.map((item) => [key(item), item]));
}

function fromFile(file: StoredFile): GatewayState {
  if (file.version !== FORMAT_VERSION) throw new Error(`format version ${String(file.version)} is not ${FORMAT_VERSION}`);
  if (!Array.isArray(file.merchants) || typeof file.clockOffsetMs !== 'number') throw new Error('it is not a gateway state');
  const merchants = new Map<string, MerchantState>();
  for (const merchant of file.merchants) {
    merchants.set(merchant.id, {
      id: merchant.id,
      publicKey: merchant.publicKey,
      privateKey: merchant.privateKey,
      webhookUrl: merchant.webhookUrl,
      currency: merchant.currency,
      plans: byKey(merchant.plans, (plan) => plan.id),
      customers: byKey(merchant.customers, (customer) => customer.id),
      paymentMethods: byKey(merchant.paymentMethods, (method) => method.token),
      nonces: byKey(merchant.nonces, (nonce) => nonce.nonce),
      transactions: byKey(merchant.transactions, (transaction) => transaction.id),
      subscriptions: byKey(merchant.subscriptions, (subscription) => subscription.id),
      ...(merchant.missingDiscountIds?.length ? { missingDiscountIds: merchant.missingDiscountIds } : {}),
    });
  }
  return { clockOffsetMs: file.clockOffsetMs, merchants };
}

function toFile(state: GatewayState): StoredFile {
  return {
    version: FORMAT_VERSION,
    clockOffsetMs: state.clockOffsetMs,
    merchants: [...state.merchants.values()].map((merchant) => ({
      id: merchant.id,
      publicKey: merchant.publicKey,
      privateKey: merchant.privateKey,
      webhookUrl: merchant.webhookUrl,
      currency: merchant.currency,
      plans: [...merchant.plans.values()],
      customers: [...merchant.customers.values()],
      paymentMethods: [...merchant.paymentMethods.values()],
      nonces: [...merchant.nonces.values()],
      transactions: [...merchant.transactions.values()],
      subscriptions: [...merchant.subscriptions.values()],
      ...(merchant.missingDiscountIds?.length ? { missingDiscountIds: merchant.missingDiscountIds } : {}),
    })),
  };
}

/** The state file of one gateway: loads it once, then saves each change in order. */
export class StateFile {
  readonly path: string;
  private writes: Promise<void> = Promise.resolve();
  private written = 0;

  constructor(
    private readonly dataDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.path = join(dataDir, FILE_NAME);
  }

  /**
   * The saved state, or an empty one on a first start. A file that cannot be read back (edited
   * by hand, or from another version) is set aside under a new name, never silently overwritten.
   */
  async load(): Promise<GatewayState> {
    await mkdir(this.dataDir, { recursive: true });
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
      throw error;
    }
    try {
      return fromFile(JSON.parse(text) as StoredFile);
    } catch (error) {
      const aside = `${this.path}.unreadable-${Date.now()}`;
      await rename(this.path, aside);
      this.log(
        `Local payment gateway: ${this.path} could not be read (${(error as Error).message}); moved it to ${aside} and started empty.`,
      );
      return emptyState();
    }
  }

  /** Writes the state as it is now; resolves once that write (and every earlier one) is on disk. */
  save(state: GatewayState): Promise<void> {
    const text = JSON.stringify(toFile(state));
    this.written += 1;
    const temporary = `${this.path}.${process.pid}.${this.written}.tmp`;
    const write = this.writes.then(async () => {
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, this.path);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Resolves once every write asked for so far has ended. */
  settled(): Promise<void> {
    return this.writes;
  }
}
