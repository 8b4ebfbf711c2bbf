import { setTimeout as sleep } from 'node:timers/promises';
import type braintree from 'braintree';
import type { LocalGatewayKeys } from '../../../shared/payments/local-gateway';
import type { GatewayEvent } from './billing';

/**
 * Webhooks as Braintree sends them: a form POST of `bt_signature` and `bt_payload` to the
 * merchant's webhook URL, made by Braintree's own SDK (the sample notification its testing
 * gateway builds, signed with that merchant's keys), so the product parses them exactly as it
 * parses Braintree's. They go out one at a time in the order things happened; a failure or a
 * non-2xx answer is retried after each delay given, then logged and dropped.
 */

export interface WebhookTarget {
  keys: LocalGatewayKeys;
  webhookUrl: string;
}

export interface WebhookDelivery {
  merchantId: string;
  subscriptionId: string;
  kind: string;
  at: string;
  delivered: boolean;
  attempts: number;
  /** The last answer's status, when there was one. */
  status?: number;
  /** Why the last attempt failed, when it did. */
  error?: string;
}

export interface WebhookDispatcherOptions {
  targetOf(merchantId: string): WebhookTarget | undefined;
  /** The pause before each retry: as many retries as delays. */
  retryDelaysMs: readonly number[];
  /** How long one attempt may take. */
  timeoutMs: number;
  log: (line: string) => void;
}

let sdk: Promise<typeof braintree> | undefined;

/**
 * Braintree's SDK, loaded for the first webhook rather than with the gateway: its load (xml2js
 * and the rest, some 0.1 s) was paid by every test file's fork and every `npm start`, most of
 * which send no webhook. A failed load is tried again on the next webhook.
 */
function loadSdk(): Promise<typeof braintree> {
  sdk ??= import('braintree').then(
    (loaded) => loaded.default,
    (error: unknown) => {
      sdk = undefined;
      throw error;
    },
  );
  return sdk;
}

const sdkSigningFor = async (keys: LocalGatewayKeys) => {
  const loaded = await loadSdk();
  return new loaded.BraintreeGateway({
    environment: loaded.Environment.Sandbox,
    merchantId: keys.merchantId,
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
  });
};

/**
 * The SDK's sample notification, stamped with the gateway's time rather than the machine's (the
 * clock may have been moved on) and signed again by the SDK for that.
 */
export async function signedNotification(
  keys: LocalGatewayKeys,
  kind: braintree.WebhookNotificationKind,
  subscriptionId: string,
  at: string,
) {
  const gateway = await sdkSigningFor(keys);
  // Declared as a promise; the SDK builds it at once. Awaiting covers both.
  const sample = await gateway.webhookTesting.sampleNotification(kind, subscriptionId);
  const stamp = `${at.slice(0, 19)}Z`;
  const xml = Buffer.from(sample.bt_payload, 'base64')
    .toString('utf8')
    .replace(/<timestamp type="datetime">[^<]*<\/timestamp>/, `<timestamp type="datetime">${stamp}</timestamp>`);
  return signedPayload(keys, xml);
}

/** Any XML as a delivery signed with the keys, as Braintree's SDK signs its samples (tests send malformed ones). */
export async function signedPayload(keys: LocalGatewayKeys, xml: string): Promise<{ bt_signature: string; bt_payload: string }> {
  const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  // The SDK's signer, left out of its type definitions.
  const signer = (await sdkSigningFor(keys)).webhookTesting as unknown as { sampleSignature(payload: string): string };
  return { bt_signature: signer.sampleSignature(payload), bt_payload: payload };
}

export class WebhookDispatcher {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly stopping = new AbortController();
  /** Opens the way for the webhooks held since hold(). */
  private openGate: (() => void) | undefined;

  constructor(private readonly options: WebhookDispatcherOptions) {}

  /**
   * Holds every webhook queued from now on until release() (those queued before still go out):
   * Braintree sends its webhooks when it gets to them, seconds or minutes after the change, so a
   * route that changed something must not count on its webhook having arrived, nor on its
   * arriving later. Whatever waits for the webhooks (settle, a clock move) answers once released.
   */
  hold(): void {
    if (this.openGate) return;
    const gate = new Promise<void>((resolve) => (this.openGate = resolve));
    this.tail = this.tail.then(() => gate);
  }

  /** Sends what was held, in order, and every webhook from now on as it comes. */
  release(): void {
    this.openGate?.();
    this.openGate = undefined;
  }

  /** Queues the events' webhooks; resolves once each was delivered or given up on. */
  send(events: readonly GatewayEvent[]): Promise<WebhookDelivery[]> {
    const run = this.tail.then(async () => {
      const deliveries: WebhookDelivery[] = [];
      for (const event of events) deliveries.push(await this.deliver(event));
      return deliveries;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Stops retrying and sending; waits for the attempt in flight to end. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.release();
    await this.tail;
  }

  private async deliver(event: GatewayEvent): Promise<WebhookDelivery> {
    const delivery: WebhookDelivery = {
      merchantId: event.merchantId,
      subscriptionId: event.subscriptionId,
      kind: event.kind,
      at: event.at,
      delivered: false,
      attempts: 0,
    };
    const target = this.options.targetOf(event.merchantId);
    if (!target) {
      delivery.error = 'the merchant has no webhook URL';
      return delivery;
    }
    let body: string;
    try {
      body = new URLSearchParams(await signedNotification(target.keys, event.kind, event.subscriptionId, event.at)).toString();
    } catch (error) {
      delivery.error = (error as Error).message;
      this.options.log(`Local payment gateway: could not build the ${event.kind} webhook: ${delivery.error}`);
      return delivery;
    }
    const pauses = [0, ...this.options.retryDelaysMs];
    for (const pause of pauses) {
      if (this.stopping.signal.aborted) break;
      if (pause > 0) {
        try {
          await sleep(pause, undefined, { signal: this.stopping.signal });
        } catch {
          break;
        }
      }
      delivery.attempts += 1;
      try {
        const response = await fetch(target.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.options.timeoutMs)]),
        });
        await response.arrayBuffer().catch(() => undefined);
        delivery.status = response.status;
        if (response.ok) {
          delivery.delivered = true;
          delete delivery.error;
          return delivery;
        }
        delivery.error = `answered ${response.status}`;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        delivery.error = cause?.code ?? (error as Error).message;
      }
    }
    this.options.log(
      `Local payment gateway: gave up on the ${event.kind} webhook for subscription ${event.subscriptionId} to ${target.webhookUrl} after ${delivery.attempts} attempt(s): ${delivery.error ?? 'stopped'}`,
    );
    return delivery;
  }
}
