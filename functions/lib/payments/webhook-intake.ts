/**
 * Webhook intake for every seller (the platform's Pro plan, each shop), once:
 * - the signature, made with the seller's own keys, is the only authority: a mismatch is a 401
 *   and nothing is read or written;
 * - a notification is a signal: the subscription it names is read from the gateway and that state
 *   is applied (ordered by gatewayVersion in subscription-sync.ts), so late, repeated and
 *   out-of-order deliveries are harmless;
 * - each delivery is stored once per seller (a repeat is acknowledged and ignored);
 * - a signed payload we cannot use (malformed, a kind we do not handle, a subscription the gateway
 *   does not know) is acknowledged with 200 and logged: the gateway retries failed deliveries
 *   for hours, and no retry of the same payload can do better. Only a gateway or table that is out
 *   of reach answers an error, so that the retry comes when it can succeed.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/service';
import { isConditionalCheckFailed } from '../db/errors';
import { logger } from '../logger';
import {
  type GatewaySubscription,
  type ParsedWebhook,
  type PaymentGateway,
  PaymentRecordNotFound,
  SUBSCRIPTION_WEBHOOK_KINDS,
  UnusableWebhook,
} from './gateway';

/** Longer than Braintree retries a delivery, so a repeat within its retries is recognised. */
const KEEP_EVENTS_SECONDS = 30 * 86_400;
const SUBSCRIPTION_KINDS: ReadonlySet<string> = new Set(SUBSCRIPTION_WEBHOOK_KINDS);

export interface WebhookDelivery {
  /** Who the delivery is for: 'platform', or the shop's merchant account id. */
  sellerId: string;
  gateway: PaymentGateway;
  signature: string;
  payload: string;
  /** Applies the gateway's current state of a subscription the notification named. */
  applySubscription: (subscription: GatewaySubscription, now: Date) => Promise<unknown>;
}

export interface WebhookAnswer {
  received: true;
  duplicate: boolean;
}

/** Scoped to the seller: two sellers' gateways never share an event. */
export const webhookEventIdOf = (sellerId: string, payload: string) =>
  createHash('sha256').update(`${sellerId}\n${payload}`).digest('base64url');

export async function receiveWebhook(db: Db, delivery: WebhookDelivery): Promise<WebhookAnswer> {
  const notification = await parseOrIgnore(delivery);
  if (!notification) return { received: true, duplicate: false };
  const eventId = webhookEventIdOf(delivery.sellerId, delivery.payload);
  const { data: seen } = await db.entities.webhookEvent.get({ eventId }).go();
  if (seen) return { received: true, duplicate: true };

  if (notification.subscriptionId && SUBSCRIPTION_KINDS.has(notification.kind)) {
    await applyNamedSubscription(delivery, notification.subscriptionId, notification.kind);
  } else {
    logger.info('A webhook of a kind that changes nothing here was acknowledged', {
      sellerId: delivery.sellerId,
      kind: notification.kind,
    });
  }
  // Stored once it was applied: a delivery that failed half-way is applied again when the gateway retries it.
  const now = new Date();
  try {
    await db.entities.webhookEvent
      .create({
        eventId,
        sellerId: delivery.sellerId,
        kind: notification.kind,
        ...(notification.subscriptionId ? { subjectId: notification.subscriptionId } : {}),
        sentAt: notification.timestamp,
        receivedAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + KEEP_EVENTS_SECONDS,
      })
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    return { received: true, duplicate: true };
  }
  return { received: true, duplicate: false };
}

/** The verified notification, or null for a signed payload that says nothing usable (logged). */
async function parseOrIgnore(delivery: WebhookDelivery): Promise<ParsedWebhook | null> {
  try {
    // Throws 401 before anything is read or written when the signature does not hold.
    return await delivery.gateway.parseWebhook({ signature: delivery.signature, payload: delivery.payload });
  } catch (error) {
    if (!(error instanceof UnusableWebhook)) throw error;
    logger.warn('A signed webhook could not be used and was acknowledged', {
      sellerId: delivery.sellerId,
      reason: error.message,
      cause: error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : String(error.cause),
    });
    return null;
  }
}

async function applyNamedSubscription(delivery: WebhookDelivery, subscriptionId: string, kind: string): Promise<void> {
  let current: GatewaySubscription;
  try {
    // The notification is a signal: the state applied is the one the gateway answers now.
    current = await delivery.gateway.findSubscription(subscriptionId);
  } catch (error) {
    if (!(error instanceof PaymentRecordNotFound)) throw error;
    logger.warn('A webhook named a subscription the gateway does not know', { sellerId: delivery.sellerId, kind });
    return;
  }
  await delivery.applySubscription(current, new Date());
}
