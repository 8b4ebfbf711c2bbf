import { type GatewayEvent, runDueBillings, settleDue } from './billing';
import type { GatewayStore } from './store';
import type { WebhookDelivery, WebhookDispatcher } from './webhooks';

/** How often billing dates are looked for as real time passes (the clock control bills at once). */
const BILLING_INTERVAL_MS = 30_000;

/**
 * What runs on the gateway's clock: subscriptions billed on their dates, whether time passes or
 * the clock control moves it, and the webhooks that billing and the requests' changes send.
 */
export class BillingWorker {
  private interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: GatewayStore,
    private readonly dispatcher: WebhookDispatcher,
    private readonly log: (line: string) => void,
  ) {}

  /** Bills whatever came due by the gateway's clock, and settles what was submitted long enough ago; the events are the caller's to send. */
  catchUp(): GatewayEvent[] {
    const events: GatewayEvent[] = [];
    runDueBillings(this.store.state, this.store.clock.today(), events);
    settleDue(this.store.state, this.store.clock.now());
    return events;
  }

  /** Resolves once every webhook already sent was delivered or given up on: the dispatcher sends one at a time, in order. */
  async settle(): Promise<void> {
    await this.dispatcher.send([]);
  }

  /** Holds the webhooks queued from now on until releaseWebhooks() (WebhookDispatcher.hold). */
  holdWebhooks(): void {
    this.dispatcher.hold();
  }

  releaseWebhooks(): void {
    this.dispatcher.release();
  }

  /** Webhooks of changes the caller did not wait for: their outcome is only logged. */
  sendLater(events: readonly GatewayEvent[]): void {
    if (events.length > 0) void this.dispatcher.send(events);
  }

  /** Bills at once what fell due while the gateway was stopped, as Braintree would have, then as dates come. */
  async start(): Promise<void> {
    const events = this.catchUp();
    await this.store.save();
    this.sendLater(events);
    this.interval = setInterval(() => {
      const due = this.catchUp();
      if (due.length === 0) return;
      this.store
        .save()
        .catch((error: unknown) => this.log(`Local payment gateway: could not save its state: ${(error as Error).message}`));
      this.sendLater(due);
    }, BILLING_INTERVAL_MS);
    this.interval.unref();
  }

  /** Moves the gateway's clock on and bills what came due; resolves once each of its webhooks was delivered or given up on. */
  async advance(milliseconds: number): Promise<{ events: GatewayEvent[]; deliveries: WebhookDelivery[] }> {
    this.store.clock.advance(milliseconds);
    const events = this.catchUp();
    await this.store.save();
    return { events, deliveries: await this.dispatcher.send(events) };
  }

  stop(): void {
    clearInterval(this.interval);
  }
}
