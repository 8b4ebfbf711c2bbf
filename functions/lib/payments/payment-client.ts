import type { PaymentClient } from '../../../shared/schemas/subscriptions';
import type { Db } from '../db/service';
import type { PaymentGateway } from './gateway';
import { gatewayCustomerOf } from './customers';

/**
 * What the browser's card form needs for the caller. The gateway makes a client token only for a
 * customer it knows (Braintree refuses an unknown customer id), and one made for the customer
 * lets Drop-in offer the cards they saved, so the customer is made first when they are new.
 */
export async function paymentClientFor(db: Db, gateway: PaymentGateway, userId: string): Promise<PaymentClient> {
  await gateway.ensureCustomer(await gatewayCustomerOf(db, userId));
  return { environment: gateway.environment, clientToken: await gateway.clientToken(userId) };
}
