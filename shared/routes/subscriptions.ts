import {
  createProDiscountCodeBodySchema,
  discountCodeListSchema,
  discountCodeParamsSchema,
  discountCodeSchema,
} from '../schemas/discounts';
import {
  activeSubscriptionSchema,
  braintreeWebhookBodySchema,
  checkoutInvoiceSchema,
  checkoutQuerySchema,
  checkoutScreenSchema,
  fulfilledInvoiceSchema,
  fulfillInvoiceBodySchema,
  invoiceParamsSchema,
  paymentClientSchema,
  productStockSchema,
  subscriptionAnswerSchema,
  subscriptionParamsSchema,
  subscriptionScreenSchema,
  updatePaymentMethodBodySchema,
  upgradesScreenSchema,
  webhookAnswerSchema,
} from '../schemas/subscriptions';
import {
  proChargeParamsSchema,
  proPaymentsQuerySchema,
  proPaymentsSchema,
  refundedProChargeSchema,
  refundProChargeBodySchema,
} from '../schemas/pro-refunds';
import { defineRoute } from './define-route';

/**
 * The Pro plan's routes, all served by functions/subscriptions/: its screens, prices, checkout and
 * the subscriber's subscription (/api/i/ourTransfers), and Braintree's webhook for them
 * (/api/e/braintree).
 */

/** The Pro plan's prices change only with a deployment. */
const PRODUCT_STOCK_CACHE_SECONDS = 300;
/**
 * Routes that wait on the payment gateway: a few of its calls in a row (customer, card, charge),
 * each given up on well before API Gateway's 29 s.
 */
const GATEWAY_ROUTE_TIMEOUT_SECONDS = 25;

export const showSubscriptionScreen = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/show/subscription/v',
  access: 'user',
  handler: 'subscriptions/show-subscription-screen',
  summary:
    "The subscription page's data: the caller's Pro subscription (or none) with its status, next charge, card and when Pro ends if nothing changes; the plan's limits they have now; their successful charges (the latest 24); and the Pro plan's prices.",
  response: subscriptionScreenSchema,
});

export const showUpgradesScreen = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/show/upgrades',
  access: 'public',
  handler: 'subscriptions/show-upgrades-screen',
  summary:
    "The upgrades page's data: Free and Pro side by side (limits and prices), page metadata, and for a signed-in caller their current plan and subscription.",
  response: upgradesScreenSchema,
});

export const showCheckoutScreen = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/show/checkout',
  access: 'user',
  handler: 'subscriptions/show-checkout-screen',
  summary:
    "The checkout page's data for a price (`priceId`): the caller's open invoice for it (made on the first call, the same one after), the price, and a client token for the card form. `payment` is null when the caller has Pro already. With `discountCode`, the invoice is priced with that Pro plan code, as getCheckoutInvoice says.",
  query: checkoutQuerySchema,
  response: checkoutScreenSchema,
  capabilities: { table: 'read-write', payments: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const getProProductStock = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/subscription/product_stock/v',
  access: 'public',
  handler: 'subscriptions/get-pro-product-stock',
  summary: "The Pro plan's product and its prices (monthly and yearly), with what Free and Pro each allow.",
  response: productStockSchema,
  cacheSeconds: PRODUCT_STOCK_CACHE_SECONDS,
});

export const getActiveSubscription = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/subscription/product/active',
  access: 'user',
  handler: 'subscriptions/get-active-subscription',
  summary:
    "The caller's Pro subscription while it gives Pro (active, past due within its grace period, or canceled with paid time left); `subscription` is null otherwise.",
  response: activeSubscriptionSchema,
});

export const getCheckoutInvoice = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/subscription/checkout_invoice',
  access: 'user',
  handler: 'subscriptions/get-checkout-invoice',
  summary:
    'The invoice for the chosen price (`priceId`): priced from the Pro plan, never from the request. The same open invoice is answered until it is paid. With `discountCode`, it is priced with that Pro plan code (another invoice than the one without it; a use is counted only when it is paid) and `discount` says the code and what it takes off the first charge (`appliesTo`: that charge only, or every charge); 400 DISCOUNT_CODE_REFUSED with the reason for a code that is unknown, deactivated, not valid yet or expired, 409 DISCOUNT_CODE_USED_UP for one used up or already used by the caller (once per person). 409 when the caller has Pro already.',
  query: checkoutQuerySchema,
  response: checkoutInvoiceSchema,
  capabilities: { table: 'read-write' },
});

export const fulfillSubscriptionInvoice = defineRoute({
  method: 'POST',
  path: '/api/i/ourTransfers/checkout/invoice/{invoiceId}/fulfill/subscription',
  access: 'user',
  handler: 'subscriptions/fulfill-subscription-invoice',
  summary:
    "Pays the caller's invoice with the card behind `paymentMethodNonce` and starts the subscription; Pro applies at once and a receipt is emailed. An invoice priced with a discount code counts one use of it, claimed before anything is charged: 409 DISCOUNT_CODE_USED_UP (nothing charged, `priceWithoutCode` given) when its uses ran out meanwhile or the caller used a once-per-person code already, 400 when it was deactivated or has expired since; the subscription is made at the gateway with the code's discount, and the receipt names it. Idempotent: a repeated or concurrent call charges once and answers the same result. 409 (nothing charged) when the caller holds a live Pro subscription or another Pro invoice is being paid: one Pro subscription per person, whichever price. 402 with the reason when the card is declined (the invoice stays payable), 404 for another customer's invoice, 503 with Retry-After when the gateway is out of reach.",
  params: invoiceParamsSchema,
  body: fulfillInvoiceBodySchema,
  response: fulfilledInvoiceSchema,
  capabilities: { payments: true, email: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const cancelSubscription = defineRoute({
  method: 'PUT',
  path: '/api/i/ourTransfers/subscription/{subscriptionProductId}/cancel',
  access: 'user',
  handler: 'subscriptions/cancel-subscription',
  summary:
    "Cancels the caller's subscription: nothing more is charged, and Pro lasts to the end of the period paid for. Canceling again changes nothing. 404 for anyone else's.",
  params: subscriptionParamsSchema,
  response: subscriptionAnswerSchema,
  // Realtime, as the other routes that apply the gateway's state: the step that applies it
  // (applyGatewayState) tells the subscriber's open tabs of a failed or recovered payment.
  capabilities: { payments: true, email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const getPaymentClientToken = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/subscription/client_token',
  access: 'user',
  handler: 'subscriptions/get-payment-client-token',
  summary: "A client token for the card form (Braintree's Drop-in, or the local gateway's form), to add or replace a card.",
  response: paymentClientSchema,
  capabilities: { payments: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const updateSubscriptionPaymentMethod = defineRoute({
  method: 'PUT',
  path: '/api/i/ourTransfers/subscription/{subscriptionProductId}/paymentMethod',
  access: 'user',
  handler: 'subscriptions/update-subscription-payment-method',
  summary:
    "Puts the card behind `paymentMethodNonce` on the caller's subscription. A past-due subscription is charged again at once: it is active again when that goes through (402 with the reason when it does not).",
  params: subscriptionParamsSchema,
  body: updatePaymentMethodBodySchema,
  response: subscriptionAnswerSchema,
  capabilities: { payments: true, email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const receiveBraintreeWebhook = defineRoute({
  method: 'POST',
  path: '/api/e/braintree/webhook',
  access: 'public',
  handler: 'subscriptions/receive-braintree-webhook',
  summary:
    "Braintree's webhook for the product's own subscriptions (a form with `bt_signature` and `bt_payload`). Authenticated only by the signature (401 and nothing changes when it does not match); each notification is stored once (a repeat is acknowledged and ignored), and the subscription's state is then read from the gateway, so a late or out-of-order delivery never rolls it back. A signed payload that cannot be used (malformed, no kind or time, an unknown subscription) is acknowledged with 200 and logged, never a 5xx the gateway would retry for hours.",
  body: braintreeWebhookBodySchema,
  response: webhookAnswerSchema,
  acceptsFormBody: true,
  // Braintree's servers post without our header or an Origin: the signature is the authority.
  stateChanging: false,
  capabilities: { payments: true, email: true, realtime: true },
  timeoutSeconds: 25,
});

export const resumeSubscription = defineRoute({
  method: 'PUT',
  path: '/api/i/ourTransfers/subscription/{subscriptionProductId}/resume',
  access: 'user',
  handler: 'subscriptions/resume-subscription',
  summary:
    "Resumes the caller's canceled subscription while its paid time runs: nothing is charged now, and it renews on the day after the paid time (`resumeRenewsOn`), on the same card and price. Braintree cannot reactivate a canceled subscription, so the answer is a new subscription (Pending until that day, giving Pro meanwhile) that takes the canceled one's place. Idempotent: a repeated or concurrent call makes one subscription and answers it to each; an active one is answered as it is. The subscriber gets one email saying the plan is back on, with the day and amount of the next charge. 409 once the paid time has ended (subscribe again at checkout), or for a subscription that is neither canceled nor active; 404 for anyone else's.",
  params: subscriptionParamsSchema,
  response: subscriptionAnswerSchema,
  capabilities: { payments: true, email: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

// The Pro plan's discount codes, a superuser's to manage (listed last: see the listing below)

export const createProDiscountCode = defineRoute({
  method: 'POST',
  path: '/api/i/ourTransfers/superuser/mod/discountCode',
  access: 'superuser',
  handler: 'subscriptions/create-pro-discount-code',
  summary:
    "Superusers: creates a Pro plan discount code, for both prices: a percentage (`value` 1-100) or an amount in cents of the plan's currency, with an optional start, end and number of uses, once per person if asked, off the first charge or every charge (`appliesTo`). A discounted charge still costs $0.50. Codes are unique whatever their case: 409 when the plan has it already.",
  body: createProDiscountCodeBodySchema,
  response: discountCodeSchema,
});

export const listProDiscountCodes = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/superuser/v/discountCodes',
  access: 'superuser',
  handler: 'subscriptions/list-pro-discount-codes',
  summary:
    "Superusers: the Pro plan's discount codes, newest first, each with its uses so far (counted as subscriptions priced with it are paid).",
  response: discountCodeListSchema,
});

export const deactivateProDiscountCode = defineRoute({
  method: 'PUT',
  path: '/api/i/ourTransfers/superuser/mod/discountCode/{code}/deactivate',
  access: 'superuser',
  handler: 'subscriptions/deactivate-pro-discount-code',
  summary:
    'Superusers: stops a Pro plan discount code from being used (an invoice priced with it and not yet paid is refused at payment, nothing charged); uses already paid, and the discounts of subscriptions made with it, stay. Answers the code. 404 for a code the plan does not have.',
  params: discountCodeParamsSchema,
  response: discountCodeSchema,
});

// Refunds of Pro plan charges, a superuser's to make

export const listProPaymentsOfPerson = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/superuser/v/payments',
  access: 'superuser',
  handler: 'subscriptions/list-pro-payments-of-person',
  summary:
    "Superusers: a person's Pro plan charges (`person`: their username or email address), newest first (the latest 24), each with what was refunded of it, what is left to refund and every refund asked of it; and their Pro subscription, if any. 404 when nobody has that username or address.",
  query: proPaymentsQuerySchema,
  response: proPaymentsSchema,
});

export const refundProCharge = defineRoute({
  method: 'POST',
  path: '/api/i/ourTransfers/superuser/mod/payment/{transactionId}/refund',
  access: 'superuser',
  handler: 'subscriptions/refund-pro-charge',
  summary:
    "Superusers: refunds a Pro plan charge, all that is left of it or `amountMinor` of it, with a `reason`: voided when it has not settled yet (whole only: 409 PAYMENT_NOT_SETTLED for part of it), refunded to the card after. With `cancelSubscription`, the subscription it paid for is canceled too (Pro lasts to the end of the time paid for). The person gets a receipt of the refund by email and a notification, and their subscription page shows it. Exactly once: the refund is claimed before the gateway is called, and a repeated or concurrent request (the same `knownRefunds`, amount and reason) answers the same refund. 409 REFUND_TOO_LARGE naming what is left (`leftMinor`) for more than is left, 409 REFUND_REFUSED with the gateway's words, 404 for a charge that is not the Pro plan's, 503 when the gateway is out of reach (nothing is lost: asking again finishes it).",
  params: proChargeParamsSchema,
  body: refundProChargeBodySchema,
  response: refundedProChargeSchema,
  capabilities: { payments: true, email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allSubscriptionRoutes = {
  showSubscriptionScreen,
  showUpgradesScreen,
  showCheckoutScreen,
  getProProductStock,
  getActiveSubscription,
  getCheckoutInvoice,
  fulfillSubscriptionInvoice,
  cancelSubscription,
  getPaymentClientToken,
  updateSubscriptionPaymentMethod,
  receiveBraintreeWebhook,
  resumeSubscription,
  createProDiscountCode,
  listProDiscountCodes,
  deactivateProDiscountCode,
  listProPaymentsOfPerson,
  refundProCharge,
};
