import { createHash } from 'node:crypto';
import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { PaymentRecordNotFound, SUBSCRIPTION_WEBHOOK_KINDS } from '../lib/payments/gateway';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { PLATFORM_SELLER_ID } from '../lib/payments/pro-plan-access';
import { applyGatewayState } from './lib/subscriptions';

/** Longer than Braintree retries a delivery, so a repeat within its retries is recognised. */
const KEEP_EVENTS_SECONDS = 30 * 86_400;
const SUBSCRIPTION_KINDS: ReadonlySet<string> = new Set(SUBSCRIPTION_WEBHOOK_KINDS);

export const handler = createHandler(subscriptionRoutes.receiveBraintreeWebhook, async ({ body }) => {
  const db = getDb();
  const gateway = await paymentGateway();
  // Throws 401 before anything is read or written: the signature is this route's only authority.
  const notification = await gateway.parseWebhook({ signature: body.bt_signature, payload: body.bt_payload });
  const eventId = createHash('sha256').update(body.bt_payload).digest('base64url');
  const { data: seen } = await db.entities.webhookEvent.get({ eventId }).go();
  if (seen) return { received: true as const, duplicate: true };

  if (notification.subscriptionId && SUBSCRIPTION_KINDS.has(notification.kind)) {
    try {
      // The notification is a signal: the state applied is the one the gateway answers now.
      const current = await gateway.findSubscription(notification.subscriptionId);
      await applyGatewayState(db, current, new Date());
    } catch (error) {
      if (!(error instanceof PaymentRecordNotFound)) throw error;
      logger.warn('A webhook named a subscription the gateway does not know', { kind: notification.kind });
    }
  }
  // Stored once it was applied: a delivery that failed half-way is applied again when the gateway retries it.
  const now = new Date();
  try {
    await db.entities.webhookEvent
      .create({
        eventId,
        sellerId: PLATFORM_SELLER_ID,
        kind: notification.kind,
        ...(notification.subscriptionId ? { subjectId: notification.subscriptionId } : {}),
        sentAt: notification.timestamp,
        receivedAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + KEEP_EVENTS_SECONDS,
      })
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    return { received: true as const, duplicate: true };
  }
  return { received: true as const, duplicate: false };
});
