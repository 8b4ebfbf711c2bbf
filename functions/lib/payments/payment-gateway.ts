import { getConfig, type PaymentGatewaySettings } from '../config';
import { braintreeCredentials } from './braintree-credentials';
import type { PaymentGateway } from './gateway';

/**
 * The payment gateway the calling function's config names: Braintree in AWS (its keys read from
 * Secrets Manager on first use), the local gateway under `npm start` and in the tests, each
 * adapter loaded then rather than when the function is imported (see gateway-on-demand.ts). Made once
 * per setting and kept for the warm function's later calls; a failed start (the secret could
 * not be read) is tried again on the next call.
 */

const gateways = new Map<string, Promise<PaymentGateway>>();
let replacement: PaymentGateway | undefined;

const keyOf = (settings: PaymentGatewaySettings) =>
  settings.kind === 'local' ? `local ${settings.url}` : `braintree ${settings.secretArn}`;

export function paymentGateway(): Promise<PaymentGateway> {
  if (replacement) return Promise.resolve(replacement);
  const settings = getConfig().paymentGateway;
  const key = keyOf(settings);
  let gateway = gateways.get(key);
  if (!gateway) {
    gateway =
      settings.kind === 'local'
        ? import('./local-gateway').then(({ createLocalPaymentGateway }) => createLocalPaymentGateway(settings.url))
        : braintreeCredentials(settings.secretArn).then(async (credentials) =>
            (await import('./braintree-gateway')).createBraintreePaymentGateway(credentials),
          );
    gateways.set(key, gateway);
    gateway.catch(() => gateways.delete(key));
  }
  return gateway;
}

/** Tests: answer this gateway instead of the configured one (undefined goes back to the config). */
export function usePaymentGatewayForTests(gateway: PaymentGateway | undefined): void {
  replacement = gateway;
}
