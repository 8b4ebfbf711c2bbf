import { toDecimalAmount } from '../../shared/payments/money';
import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { BadRequest, Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { PaymentDeclined } from '../lib/payments/gateway';
import { isPaid } from '../lib/payments/subscription-sync';
import { readGrade } from './lib/catalog';
import {
  applyStoreGatewayState,
  keepGatewayAddOns,
  openShopOf,
  recordSubscriptionCharge,
  requireOwnStoreSubscription,
} from './lib/store-subscriptions';
import { sendReceipts } from '../lib/payments/payment-mail';
import { storeVoice } from './lib/store-mail';

export const handler = createHandler(storeRoutes.addStoreSubscriptionAddOn, async ({ params, body, caller }) => {
  const db = getDb();
  const subscription = await requireOwnStoreSubscription(db, params.subscriptionProductId, caller.userId);
  const grade = await readGrade(db, subscription.priceId, true);
  const offer = grade?.plan?.addOns.find((addOn) => addOn.addOnId === body.addOnId);
  if (!grade || !offer) throw new BadRequest(`${grade?.name ?? 'This subscription'} offers no add-on '${body.addOnId}'.`);
  if (body.quantity > offer.maxQuantity) {
    throw new BadRequest(`${grade.name} offers at most ${offer.maxQuantity} of ${offer.name}.`);
  }
  if (subscription.status !== 'Active') {
    throw new Conflict('Add-ons can be added to an active subscription only: update your card first if a payment failed.');
  }
  // Setting the quantity it has already changes nothing and charges nothing.
  if (subscription.addOns?.find((addOn) => addOn.addOnId === offer.addOnId)?.quantity === body.quantity) return true;

  const { merchant, gateway } = await openShopOf(db, subscription);
  const before = await gateway.findSubscription(subscription.subscriptionId);
  if (before.status !== 'Active') {
    // Our copy was behind the gateway (a webhook still on its way): catch up, and refuse as above.
    await applyStoreGatewayState(db, before, new Date(), { merchant, grade });
    throw new Conflict('Add-ons can be added to an active subscription only: update your card first if a payment failed.');
  }
  const kept = before.addOns.find((addOn) => addOn.id === offer.addOnId);
  let updated;
  try {
    updated = await gateway.updateSubscription(subscription.subscriptionId, {
      // Units already bought keep their price; a new add-on takes the grade's.
      addOns: [{ id: offer.addOnId, amount: kept?.amount ?? toDecimalAmount(offer.amountMinor), quantity: body.quantity }],
      // More is charged for the rest of the cycle at once; fewer takes effect from the next cycle, with no refund, as a removal does.
      prorateCharges: body.quantity > (kept?.quantity ?? 0),
    });
  } catch (error) {
    // A declined prorated charge leaves the subscription as it was at the gateway, and nothing was written here.
    if (error instanceof PaymentDeclined) {
      throw new PaymentDeclined(error.reason, `Nothing was added: ${error.message}`, { cause: error });
    }
    throw error;
  }
  const charged = new Set(before.transactions.map((transaction) => transaction.id));
  const prorated = updated.transactions.filter((transaction) => !charged.has(transaction.id) && isPaid(transaction));
  const payments = [];
  for (const transaction of prorated) {
    payments.push(
      ...(await recordSubscriptionCharge(db, subscription, transaction, {
        kind: 'add-on',
        description: `${grade.name} — ${offer.name} (prorated)`,
        shopName: merchant.shopName,
      })),
    );
  }
  const now = new Date();
  const stored = await applyStoreGatewayState(db, updated, now, { merchant, grade });
  if (stored) await keepGatewayAddOns(db, stored, updated, grade, now);
  await sendReceipts(db, storeVoice(merchant.shopName), payments, now);
  return true;
});
