import type { GatewayEnvironment, PaymentGateway } from './gateway';

/**
 * A payment gateway whose adapter is loaded by the first call that reaches it, not when the
 * function is imported: Braintree's adapter brings Braintree's SDK (an XML parser and builder,
 * date formatting: some 300 KB), and the local gateway's adapter is never used in AWS. In a
 * Lambda bundle the `import()` in `load` is a chunk of its own, which only the first call
 * compiles; a function refused before any payment never does.
 *
 * Only functions that call a gateway may import the adapters' loaders (their routes declare
 * payments or merchantKeys: test/support/bundle-dependencies.ts). A failed load (which only a
 * broken deployment could cause) is tried again on the next call.
 */
export function gatewayOnFirstCall(environment: GatewayEnvironment, load: () => Promise<PaymentGateway>): PaymentGateway {
  let loading: Promise<PaymentGateway> | undefined;
  const loaded = (): Promise<PaymentGateway> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    environment,
    clientToken: async (customerId) => (await loaded()).clientToken(customerId),
    ensureCustomer: async (customer) => (await loaded()).ensureCustomer(customer),
    vaultPaymentMethod: async (request) => (await loaded()).vaultPaymentMethod(request),
    sale: async (request) => (await loaded()).sale(request),
    findSaleByOrderId: async (orderId) => (await loaded()).findSaleByOrderId(orderId),
    listPlans: async () => (await loaded()).listPlans(),
    createSubscription: async (request) => (await loaded()).createSubscription(request),
    findSubscription: async (id) => (await loaded()).findSubscription(id),
    updateSubscription: async (id, update) => (await loaded()).updateSubscription(id, update),
    retrySubscriptionCharge: async (id) => (await loaded()).retrySubscriptionCharge(id),
    cancelSubscription: async (id) => (await loaded()).cancelSubscription(id),
    listTransactions: async (window) => (await loaded()).listTransactions(window),
    listRefunds: async (window) => (await loaded()).listRefunds(window),
    listSubscriptions: async (filter) => (await loaded()).listSubscriptions(filter),
    findTransaction: async (id) => (await loaded()).findTransaction(id),
    refundTransaction: async (request) => (await loaded()).refundTransaction(request),
    voidTransaction: async (id) => (await loaded()).voidTransaction(id),
    findRefundByOrderId: async (orderId) => (await loaded()).findRefundByOrderId(orderId),
    parseWebhook: async (notification) => (await loaded()).parseWebhook(notification),
  };
}
