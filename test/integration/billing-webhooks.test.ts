import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { webhookEventIdOf } from '../../functions/lib/payments/webhook-intake';
import { signedPayload } from '../../infra/local/payment-gateway/webhooks';
import { LOCAL_GATEWAY_KEYS, type LocalGatewayKeys } from '../../shared/payments/local-gateway';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { openShop, shopKeysOf } from '../support/penpay';

const suite = apiSuite();

/**
 * Signed deliveries whose payloads say nothing we can use. Braintree retries a delivery that did
 * not answer 2xx for hours, so each must be acknowledged (and logged), never answered 500.
 */
const UNUSABLE_PAYLOADS: Record<string, string> = {
  'an unclosed tag': '<notification><kind>subscription_canceled</kind>',
  'an empty notification': '<notification></notification>',
  'no XML at all': 'this is not a notification',
  'a notification without a time': '<notification><kind>subscription_canceled</kind><subject></subject></notification>',
  'an unknown subscription with no transactions':
    '<notification><kind>subscription_went_past_due</kind><timestamp type="datetime">2026-12-01T10:00:00Z</timestamp>' +
    '<subject><subscription><id>nobody-has-this</id></subscription></subject></notification>',
  'a kind nobody handles':
    '<notification><kind>something_braintree_adds_later</kind><timestamp type="datetime">2026-12-01T10:00:00Z</timestamp>' +
    '<subject></subject></notification>',
};

interface Target {
  name: string;
  sellerId: string;
  path: string;
  keys: LocalGatewayKeys;
}

const post = (path: string, form: { bt_signature: string; bt_payload: string }) =>
  fetch(`${suite.runtime.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

describe('webhook intake, for the Pro plan and for every shop alike', () => {
  const targets: Target[] = [];

  beforeAll(async () => {
    const shop = await openShop(suite, 'webhook-intake');
    targets.push(
      { name: 'the Pro plan', sellerId: 'platform', path: routes.receiveBraintreeWebhook.path, keys: LOCAL_GATEWAY_KEYS },
      {
        name: 'a shop',
        sellerId: shop.merchant.id,
        path: routes.receiveMerchantWebhook.path.replace('{merchantAccountId}', shop.merchant.id),
        keys: await shopKeysOf(suite, shop.merchant.id),
      },
    );
  });

  it.each(Object.entries(UNUSABLE_PAYLOADS))(
    'acknowledges a signed delivery with %s on both routes, never a 500',
    async (_, xml) => {
      for (const target of targets) {
        // Prepare
        const delivery = await signedPayload(target.keys, xml);

        // Act
        const answer = await post(target.path, delivery);

        // Assess
        expect({ route: target.name, status: answer.status }).toEqual({ route: target.name, status: 200 });
        expect(await answer.json()).toEqual({ received: true, duplicate: false });
      }
    },
  );

  it('keeps no event for a payload it could not read', async () => {
    for (const target of targets) {
      // Prepare
      const delivery = await signedPayload(target.keys, UNUSABLE_PAYLOADS['an empty notification'] as string);

      // Act
      await post(target.path, delivery);

      // Assess
      const eventId = webhookEventIdOf(target.sellerId, delivery.bt_payload);
      const { data } = await getDb().entities.webhookEvent.get({ eventId }).go({ consistent: true });
      expect(data).toBeNull();
    }
  });

  it('still refuses the same payloads with 401 when the signature is not the seller’s', async () => {
    for (const target of targets) {
      // Prepare
      const delivery = await signedPayload(target.keys, UNUSABLE_PAYLOADS['an unclosed tag'] as string);

      // Act
      const tampered = await post(target.path, { ...delivery, bt_signature: `${delivery.bt_signature}0` });

      // Assess
      expect({ route: target.name, status: tampered.status }).toEqual({ route: target.name, status: 401 });
    }
  });
});
