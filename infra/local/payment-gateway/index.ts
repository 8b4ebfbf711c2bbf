import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkPlans, checkWebhookUrl, control } from './control';
import { pathSegments } from './http';
import { type GatewayApi, sendError, serverApi, tokenizeRoute } from './protocol';
import { notFound } from './refusals';
import type { LocalGatewayPlan } from './state';
import { GatewayStore } from './store';
import { WebhookDispatcher } from './webhooks';
import { BillingWorker } from './worker';

export type { LocalGatewayPlan } from './state';
export type { GatewayEvent } from './billing';
export type { WebhookDelivery } from './webhooks';

export interface StartLocalPaymentGatewayOptions {
  /** Where the state file lives (kept across restarts). */
  dataDir: string;
  /** Origins the browser's card form may tokenize from. */
  allowedOrigins: readonly string[];
  /** Where the local merchant's webhooks go (the product's webhook route). */
  webhookUrl: string;
  /**
   * The local merchant's plans (the Pro plan's, and the demo plans of shared/payments/
   * local-gateway.ts). Merchants made by POST /__control/merchants without plans get the demo
   * plans in their currency.
   */
  plans: readonly LocalGatewayPlan[];
  log?: (line: string) => void;
  /** The address to listen on; 127.0.0.1 unless given. */
  host?: string;
  /** Pauses before each webhook retry (as many retries as pauses); 1 s, 5 s and 15 s unless given. */
  webhookRetryDelaysMs?: readonly number[];
  /** How long one webhook attempt may take; 5 s unless given. */
  webhookTimeoutMs?: number;
}

export interface LocalPaymentGateway {
  /** The gateway's origin, e.g. http://127.0.0.1:49152 (PAYMENT_GATEWAY_URL). */
  endpoint: string;
  stop(): Promise<void>;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 15_000];
const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

async function route(api: GatewayApi, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { segments } = pathSegments(request.url);
  const [first, merchantId, ...rest] = segments;
  if (first === '__control') return control(api.store, api.billing, request, response, segments.slice(1));
  if (first === 'merchants' && merchantId !== undefined) {
    if (rest.join('/') === 'client_api/v1/payment_methods/credit_cards') return tokenizeRoute(api, request, response, merchantId);
    return serverApi(api, request, response, merchantId, rest);
  }
  throw notFound('This route');
}

/** Braintree's sandbox on this machine, for `npm start` and the tests: see docs/local-tour.md. */
export async function startLocalPaymentGateway(options: StartLocalPaymentGatewayOptions): Promise<LocalPaymentGateway> {
  const log = options.log ?? ((line: string) => console.error(line));
  const plans = checkPlans(options.plans);
  const webhookUrl = checkWebhookUrl(options.webhookUrl);
  const store = await GatewayStore.open(options.dataDir, log);
  store.setUpLocalMerchant(webhookUrl, plans);
  const dispatcher = new WebhookDispatcher({
    targetOf: (merchantId) => store.webhookTarget(merchantId),
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    log,
  });
  const billing = new BillingWorker(store, dispatcher, log);

  const server = createServer();
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const host = !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  const endpoint = `http://${host}:${(server.address() as AddressInfo).port}`;
  // Only now is the tokenize URL known; no request can have come in before this turn ends.
  const api: GatewayApi = { store, billing, endpoint, allowedOrigins: options.allowedOrigins, log };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    route(api, request, response).catch((error: unknown) => sendError(response, error, log));
  });
  await billing.start();

  let stopped: Promise<void> | undefined;
  return {
    endpoint,
    stop: () =>
      (stopped ??= (async () => {
        billing.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await dispatcher.stop();
        await store.settled();
      })()),
  };
}
