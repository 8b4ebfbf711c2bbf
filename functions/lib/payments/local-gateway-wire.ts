/**
 * The local payment gateway's server API (infra/local/payment-gateway), as its adapter
 * (local-gateway.ts) calls it: Braintree's resources, paths and validation error codes, in JSON
 * rather than Braintree's XML. Resources are answered in the port's shapes, with a few of
 * Braintree's fields besides. Requests authenticate with HTTP Basic (public key, private key).
 */
import type { AddOnChanges } from './add-on-changes';
import type {
  GatewayAddOn,
  GatewayDiscount,
  GatewayPlan,
  GatewaySubscription,
  GatewaySubscriptionStatus,
  GatewayTransaction,
  PaymentMethodSummary,
} from './gateway';
import type { GatewayValidationError } from './gateway-refusals';

const segment = encodeURIComponent;

export const localGatewayPaths = {
  clientToken: (merchantId: string) => `/merchants/${segment(merchantId)}/client_token`,
  customers: (merchantId: string) => `/merchants/${segment(merchantId)}/customers`,
  customer: (merchantId: string, customerId: string) => `/merchants/${segment(merchantId)}/customers/${segment(customerId)}`,
  paymentMethods: (merchantId: string) => `/merchants/${segment(merchantId)}/payment_methods`,
  transactions: (merchantId: string) => `/merchants/${segment(merchantId)}/transactions`,
  /** Braintree's transaction search: by order id, or by creation time. */
  transactionSearch: (merchantId: string) => `/merchants/${segment(merchantId)}/transactions/advanced_search`,
  transaction: (merchantId: string, id: string) => `/merchants/${segment(merchantId)}/transactions/${segment(id)}`,
  refund: (merchantId: string, id: string) => `/merchants/${segment(merchantId)}/transactions/${segment(id)}/refund`,
  void: (merchantId: string, id: string) => `/merchants/${segment(merchantId)}/transactions/${segment(id)}/void`,
  plans: (merchantId: string) => `/merchants/${segment(merchantId)}/plans`,
  subscriptions: (merchantId: string) => `/merchants/${segment(merchantId)}/subscriptions`,
  /** Braintree's subscription search, by status. */
  subscriptionSearch: (merchantId: string) => `/merchants/${segment(merchantId)}/subscriptions/advanced_search`,
  subscription: (merchantId: string, id: string) => `/merchants/${segment(merchantId)}/subscriptions/${segment(id)}`,
  retryCharge: (merchantId: string, id: string) => `/merchants/${segment(merchantId)}/subscriptions/${segment(id)}/retry_charge`,
  cancel: (merchantId: string, id: string) => `/merchants/${segment(merchantId)}/subscriptions/${segment(id)}/cancel`,
  /** The browser's: Braintree's client API path for tokenizing a card. */
  tokenize: (merchantId: string) => `/merchants/${segment(merchantId)}/client_api/v1/payment_methods/credit_cards`,
} as const;

export interface LocalCustomerRequest {
  id: string;
  email?: string;
  name?: string;
}

export interface LocalClientTokenRequest {
  customerId?: string;
}

export interface LocalPaymentMethodRequest {
  customerId: string;
  paymentMethodNonce: string;
  options?: { verifyCard?: boolean; makeDefault?: boolean };
}

export interface LocalSaleRequest {
  amount: string;
  paymentMethodToken: string;
  orderId?: string;
  options?: { submitForSettlement?: boolean };
}

export interface LocalSubscriptionCreateRequest {
  id: string;
  planId: string;
  paymentMethodToken: string;
  price?: string;
  addOns?: { add?: AddOnChanges['add'] };
  /** Braintree's discounts.add: each off every cycle (neverExpires) or off the first numberOfBillingCycles. */
  discounts?: { add?: { inheritedFromId: string; amount: string; numberOfBillingCycles?: number; neverExpires?: boolean }[] };
  /** YYYY-MM-DD after today: Pending, nothing charged until then (Braintree's first_billing_date). */
  firstBillingDate?: string;
}

export interface LocalSubscriptionUpdateRequest {
  paymentMethodToken?: string;
  price?: string;
  addOns?: Partial<AddOnChanges>;
  /** Braintree's update options: proration of a change within the cycle. */
  options?: {
    prorateCharges?: boolean;
    /** True unless given: a declined prorated charge leaves the subscription unchanged (422). */
    revertSubscriptionOnProrationFailure?: boolean;
  };
}

/**
 * Braintree's transaction search, as far as the adapter uses it: the one-time sales (or, with
 * `type: { is: 'credit' }`, the refunds) of one order id, or every sale (one-time and subscription charges) created from `min` (included) to `max`
 * (left out), ISO 8601 instants. The local gateway keeps exact times, so its range is exact.
 */
export type LocalTransactionSearchRequest =
  { orderId: { is: string }; type?: { is: 'sale' | 'credit' } } | { createdAt: { min: string; max: string } };

/** Braintree's subscription search, as far as the adapter uses it: every subscription in these statuses. */
export interface LocalSubscriptionSearchRequest {
  status: GatewaySubscriptionStatus[];
}

export interface LocalRetryChargeRequest {
  amount?: string;
  submitForSettlement?: boolean;
}

export interface LocalWireTransaction extends GatewayTransaction {
  processorResponseCode: string;
  processorResponseText: string;
  gatewayRejectionReason?: string;
  orderId?: string;
  subscriptionId?: string;
  /** A refund; a sale when absent. */
  type?: 'credit';
  /** A refund's sale. */
  refundedTransactionId?: string;
}

/** Braintree's refund of a settled sale: the whole of what is left when no amount is given. */
export interface LocalRefundRequest {
  amount?: string;
  orderId?: string;
}

/** `balance` may be negative ("-1.50"): a credit from a prorated decrease, used up by later charges. */
export interface LocalWireSubscription extends Omit<GatewaySubscription, 'transactions' | 'addOns' | 'discounts'> {
  addOns: GatewayAddOn[];
  /** The discounts still applying, each with the cycles it applied to so far (Braintree's currentBillingCycle). */
  discounts: (GatewayDiscount & { currentBillingCycle: number })[];
  transactions: LocalWireTransaction[];
  billingDayOfMonth: number;
  firstBillingDate: string;
  numberOfBillingCycles: number | null;
  createdAt: string;
}

export interface LocalCustomerAnswer {
  customer: { id: string; email: string; name?: string; createdAt: string };
}
export interface LocalClientTokenAnswer {
  clientToken: string;
}
export interface LocalPaymentMethodAnswer {
  paymentMethod: PaymentMethodSummary & { customerId: string };
}
export interface LocalTransactionAnswer {
  transaction: LocalWireTransaction;
}
export interface LocalSubscriptionAnswer {
  subscription: LocalWireSubscription;
}
/** Newest first. */
export interface LocalTransactionSearchAnswer {
  transactions: LocalWireTransaction[];
}
/** In the order they were made. */
export interface LocalSubscriptionSearchAnswer {
  subscriptions: LocalWireSubscription[];
}
export interface LocalPlansAnswer {
  plans: (GatewayPlan & { numberOfBillingCycles: number | null })[];
}

/** A card verification that failed while vaulting. */
export interface LocalWireVerification {
  status: 'processor_declined' | 'failed' | 'gateway_rejected';
  processorResponseCode: string;
  processorResponseText: string;
  gatewayRejectionReason?: string;
}

/** The body of a 422: Braintree's validation errors, or the declined charge or verification. */
export interface LocalGatewayRefusalBody {
  message: string;
  errors: GatewayValidationError[];
  transaction?: LocalWireTransaction;
  verification?: LocalWireVerification;
}
