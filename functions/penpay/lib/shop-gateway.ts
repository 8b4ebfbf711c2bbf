import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { Db } from '../../lib/db/service';
import { Conflict } from '../../lib/errors';
import type { PaymentGateway } from '../../lib/payments/gateway';
import { merchantPaymentGateway } from '../../lib/payments/merchant-gateway';
import { requireConnected } from './merchants';

/**
 * The shop's own Braintree account, opened with its sealed keys: every charge, subscription and
 * client token of a shop goes through this, never through the platform's account. Only functions
 * with the merchantKeys 'open' capability can open the keys (KMS Decrypt in AWS).
 */
export async function shopGateway(db: Db, merchant: MerchantAccountItem): Promise<PaymentGateway> {
  requireConnected(merchant);
  const { data } = await db.entities.merchantGatewayKeys
    .get({ merchantAccountId: merchant.merchantAccountId })
    .go({ consistent: true });
  if (!data) throw new Conflict('This shop has no payment account connected yet.');
  return merchantPaymentGateway(merchant.merchantAccountId, data.sealed);
}
