/**
 * A merchant connecting (or replacing) their own Braintree account: the one change to a shop
 * that reaches a payment gateway and seals keys, kept apart from merchant-writes.ts so that only
 * the function doing it carries the gateway's SDK and the KMS client (its route declares
 * merchantKeys 'seal'). Every gateway check happens before anything is written, so a refusal
 * leaves the shop as it was.
 */
import type * as z from '../../../shared/zod';
import type { connectGatewayBodySchema } from '../../../shared/schemas/merchant';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import { shopScope } from '../../lib/db/entities/store-figures';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { Conflict } from '../../lib/errors';
import { createLocalGatewayAccount, gatewayForKeys } from '../../lib/payments/merchant-gateway';
import { type MerchantGatewayKeys, type SealedMerchantKeys, sealMerchantKeys } from '../../lib/payments/merchant-keys';
import { NoMerchantAccount } from './merchants';
import { merchantWebhookUrl } from './views';

type ConnectBody = z.infer<typeof connectGatewayBodySchema>;

/**
 * Connects (or replaces) the merchant's own Braintree account. Keys given by the merchant are
 * tried first (listPlans: a 400 in the merchant's words when Braintree refuses them); 'local'
 * makes a new account at the local gateway. The keys are then sealed and written with the
 * account's record of the connection in one transaction; they are never answered nor logged.
 */
export async function connectGateway(
  db: Db,
  merchant: MerchantAccountItem,
  body: ConnectBody,
  now: Date,
): Promise<MerchantAccountItem> {
  const { merchantAccountId } = merchant;
  await refuseOrphaningSubscribers(db, merchant, body);
  let keys: MerchantGatewayKeys;
  if (body.environment === 'local') {
    keys = await createLocalGatewayAccount({ currency: merchant.currency, webhookUrl: merchantWebhookUrl(merchantAccountId) });
  } else {
    keys = { environment: body.environment, merchantId: body.merchantId, publicKey: body.publicKey, privateKey: body.privateKey };
    await gatewayForKeys(keys).listPlans();
  }
  const sealed = await sealMerchantKeys(merchantAccountId, keys);
  return storeGatewayConnection(db, merchant, { environment: keys.environment, merchantId: keys.merchantId, sealed }, now);
}

/**
 * The write of a connection checked and sealed by connectGateway: the sealed keys and the
 * account's record of the connection, in one transaction (nothing reaches the gateway here).
 * A transaction that only collided with another write of the account is sent again as it was.
 */
export async function storeGatewayConnection(
  db: Db,
  merchant: MerchantAccountItem,
  connection: { environment: MerchantGatewayKeys['environment']; merchantId: string; sealed: SealedMerchantKeys },
  now: Date,
): Promise<MerchantAccountItem> {
  const { merchantAccountId } = merchant;
  const { environment, merchantId, sealed } = connection;
  const gateway = { environment, merchantId, connectedAt: now.toISOString() };
  return retryContendedWrite({ what: 'changing payment settings' }, async () => {
    const result = await db.transaction
      .write(({ merchantGatewayKeys, merchantAccount }) => [
        merchantGatewayKeys.put({ merchantAccountId, sealed, updatedAt: now.toISOString() }).commit(),
        merchantAccount.patch({ merchantAccountId }).set({ gateway, updatedAt: now.toISOString() }).commit(),
      ])
      .go();
    if (!result.canceled) return { ...merchant, gateway, updatedAt: now.toISOString() };
    if (failedConditions(result).length > 0) throw new NoMerchantAccount();
    return lostRace(result);
  });
}

/**
 * Subscriptions live in the Braintree account that started them: a shop with subscribers may
 * rotate its keys (same account), but connecting another account would leave them billed where
 * the shop can no longer reach them. Read from the shop's precomputed subscription counts.
 */
async function refuseOrphaningSubscribers(db: Db, merchant: MerchantAccountItem, body: ConnectBody): Promise<void> {
  const current = merchant.gateway;
  if (!current) return;
  const sameAccount =
    body.environment !== 'local' && body.environment === current.environment && body.merchantId === current.merchantId;
  if (sameAccount) return;
  const { data: total } = await db.entities.storeFigure
    .get({ merchantAccountId: merchant.merchantAccountId, scope: shopScope, period: 'total' })
    .go({ consistent: true });
  const live = (total?.activeSubscriptions ?? 0) + (total?.pastDueSubscriptions ?? 0);
  if (live > 0) {
    throw new Conflict(
      `Your shop has ${live} subscription${live === 1 ? '' : 's'} billed by Braintree account ${current.merchantId}: connecting another account would leave ${live === 1 ? 'it' : 'them'} out of the shop's reach. Connect new keys of that same account instead.`,
    );
  }
}
