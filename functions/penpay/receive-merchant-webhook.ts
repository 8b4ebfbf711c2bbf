import { createHash } from 'node:crypto';
import * as storeRoutes from '../../shared/routes/store';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { PaymentRecordNotFound, SUBSCRIPTION_WEBHOOK_KINDS } from '../lib/payments/gateway';
import { findShop, ShopNotFound } from './lib/merchants';
import { shopGateway } from './lib/shop-gateway';
import { applyStoreGatewayState } from './lib/store-subscriptions';

/** Longer than Braintree retries a delivery, so a repeat within its retries is recognised. */
const KEEP_EVENTS_SECONDS = 30 * 86_400;
const SUBSCRIPTION_KINDS: ReadonlySet<string> = new Set(SUBSCRIPTION_WEBHOOK_KINDS);

export const handler = createHandler(storeRoutes.receiveMerchantWebhook, async ({ params, body }) => {
  const db = getDb();
  const merchant = await findShop(db, params.merchantAccountId);
  // A shop with no gateway has nothing that could have signed this: as unknown as no shop at all.
  if (!merchant.gateway) throw new ShopNotFound();
  const gateway = await shopGateway(db, merchant);
  // Throws 401 before anything is read or written: the signature, made with this shop's own keys, is this route's only authority.
  const notification = await gateway.parseWebhook({ signature: body.bt_signature, payload: body.bt_payload });
  // Scoped to the shop: two shops' gateways never share an event.
  const eventId = createHash('sha256').update(`${merchant.merchantAccountId}\n${body.bt_payload}`).digest('base64url');
  const { data: seen } = await db.entities.webhookEvent.get({ eventId }).go();
  if (seen) return { received: true as const, duplicate: true };

  if (notification.subscriptionId && SUBSCRIPTION_KINDS.has(notification.kind)) {
    try {
      // The notification is a signal: the state applied is the one the shop's gateway answers now.
      const current = await gateway.findSubscription(notification.subscriptionId);
      await applyStoreGatewayState(db, current, new Date(), { merchant });
    } catch (error) {
      if (!(error instanceof PaymentRecordNotFound)) throw error;
      logger.warn("A shop's webhook named a subscription its gateway does not know", { kind: notification.kind });
    }
  }
  // Stored once it was applied: a delivery that failed half-way is applied again when the gateway retries it.
  const now = new Date();
  try {
    await db.entities.webhookEvent
      .create({
        eventId,
        sellerId: merchant.merchantAccountId,
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
