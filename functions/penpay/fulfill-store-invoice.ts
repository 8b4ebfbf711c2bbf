import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { payStoreInvoice } from './lib/store-checkout';

export const handler = createHandler(storeRoutes.fulfillStoreInvoice, async ({ params, body, caller }) => {
  // The customer comes from the session, never the request: another customer's invoice is a 404.
  await payStoreInvoice(getDb(), {
    invoiceId: params.invoiceId,
    customerId: caller.userId,
    nonce: body.paymentMethodNonce,
    deviceData: body.deviceData,
    now: () => new Date(),
  });
  return true;
});
