import { localDemoPlans } from '../../../shared/payments/local-gateway';
import * as z from '../../../shared/zod';
import { getConfig } from '../config';
import { BadRequest, HttpError } from '../errors';
import { type PaymentGateway, PaymentGatewayUnavailable } from './gateway';
import { gatewayOnFirstCall } from './gateway-on-demand';
import { type MerchantGatewayKeys, openMerchantKeys, type SealedMerchantKeys } from './merchant-keys';

/**
 * A merchant's own payment gateway (the storefront): every call for a merchant's products goes
 * to that merchant's Braintree account with that merchant's keys, never the product's. Keys are
 * opened from their sealed form (merchant-keys.ts, which needs the merchantKeys 'open'
 * capability) and the gateway is kept for the warm function's later calls, per merchant account
 * and sealed keys (new keys, sealed anew, make a new gateway).
 *
 * Keys of environment 'local' name an account of the local payment gateway: they work where the
 * product runs locally (MERCHANT_GATEWAY_URL) and are refused with a 400 anywhere else.
 */

/** Gateways kept at most, the least recently used forgotten first. */
const MAX_KEPT_GATEWAYS = 64;
/** As each adapter's own limit on one call. */
const LOCAL_CONTROL_TIMEOUT_MS = 10_000;

const gateways = new Map<string, Promise<PaymentGateway>>();
let replacement: ((merchantAccountId: string) => PaymentGateway) | undefined;

/** The gateway of a merchant account, from its sealed keys. */
export function merchantPaymentGateway(merchantAccountId: string, sealed: SealedMerchantKeys): Promise<PaymentGateway> {
  if (replacement) return Promise.resolve(replacement(merchantAccountId));
  const key = `${merchantAccountId}\n${sealed.ciphertext}`;
  let gateway = gateways.get(key);
  if (gateway) {
    // Used again: to the back of the line to be forgotten.
    gateways.delete(key);
    gateways.set(key, gateway);
    return gateway;
  }
  gateway = openMerchantKeys(merchantAccountId, sealed).then(gatewayForKeys);
  gateways.set(key, gateway);
  const made = gateway;
  // A failed open (KMS out of reach, say) is tried again on the next call.
  made.catch(() => {
    if (gateways.get(key) === made) gateways.delete(key);
  });
  for (const oldest of gateways.keys()) {
    if (gateways.size <= MAX_KEPT_GATEWAYS) break;
    gateways.delete(oldest);
  }
  return gateway;
}

/** 400: keys of the local gateway, where the product does not run locally. */
export class LocalGatewayNotHere extends HttpError {
  constructor(what: string) {
    super(
      400,
      'LOCAL_GATEWAY_UNAVAILABLE',
      `${what} only works where the product runs on one machine (npm start), with its local payment gateway. Connect your Braintree account's sandbox or production keys instead.`,
    );
  }
}

/**
 * The gateway these keys open, for a merchant connecting their account: its listPlans checks the
 * keys (GatewayCredentialsRejected when the gateway refuses them) before they are sealed.
 */
export function gatewayForKeys(keys: MerchantGatewayKeys): PaymentGateway {
  const missing = (['merchantId', 'publicKey', 'privateKey'] as const).filter(
    (field) => typeof keys[field] !== 'string' || keys[field].trim() === '',
  );
  if (missing.length > 0) throw new BadRequest(`Enter your Braintree ${missing.join(', ')}.`, { missing });
  const { environment, merchantId, publicKey, privateKey } = keys;
  switch (environment) {
    case 'local': {
      const url = getConfig().merchantGatewayUrl;
      if (!url) throw new LocalGatewayNotHere("A merchant account of environment 'local'");
      return gatewayOnFirstCall(environment, async () =>
        (await import('./local-gateway')).createLocalPaymentGateway(url, { merchantId, publicKey, privateKey }),
      );
    }
    case 'sandbox':
    case 'production':
      return gatewayOnFirstCall(environment, async () =>
        (await import('./braintree-gateway')).createBraintreePaymentGateway({ environment, merchantId, publicKey, privateKey }),
      );
    default:
      throw new BadRequest("The environment must be 'sandbox' or 'production' (or 'local' when the product runs locally).");
  }
}

/** Tests: every merchant's gateway is made by this (undefined goes back to their keys). */
export function useMerchantGatewayForTests(factory: ((merchantAccountId: string) => PaymentGateway) | undefined): void {
  replacement = factory;
}

const createdAccountSchema = z.object({ merchantId: z.string(), publicKey: z.string(), privateKey: z.string() });

/**
 * Locally: a new account of the local payment gateway, with the demo plans (monthly, quarterly,
 * yearly; add-ons extra-seat and priority-support) in `currency`, whose webhooks go to
 * `webhookUrl`. What "connect" does for a merchant trying the storefront offline. Where there is
 * no local gateway (in AWS), a 400 says to connect real keys.
 */
export async function createLocalGatewayAccount(request: { currency: string; webhookUrl: string }): Promise<MerchantGatewayKeys> {
  const url = getConfig().merchantGatewayUrl;
  if (!url) throw new LocalGatewayNotHere('Creating a test payment account');
  if (!/^[A-Z]{3}$/.test(request.currency)) throw new BadRequest('The currency must be an ISO 4217 code such as "USD".');
  let status: number;
  let body: unknown;
  try {
    const response = await fetch(new URL('/__control/merchants', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        webhookUrl: request.webhookUrl,
        currency: request.currency,
        plans: localDemoPlans(request.currency),
      }),
      signal: AbortSignal.timeout(LOCAL_CONTROL_TIMEOUT_MS),
    });
    status = response.status;
    body = await response.json().catch(() => ({}));
  } catch (error) {
    throw new PaymentGatewayUnavailable(error);
  }
  const message = (body as { message?: unknown } | null)?.message;
  if (status === 400)
    throw new BadRequest(typeof message === 'string' ? message : 'The local payment gateway refused the account.');
  if (status >= 500) throw new PaymentGatewayUnavailable(new Error(`The local payment gateway answered ${status}`));
  if (status !== 201) throw new Error(`The local payment gateway refused a new account (${status}): ${String(message ?? '')}`);
  const created = createdAccountSchema.parse(body);
  return { environment: 'local', merchantId: created.merchantId, publicKey: created.publicKey, privateKey: created.privateKey };
}
