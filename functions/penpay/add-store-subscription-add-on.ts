import { toDecimalAmount } from '../../shared/payments/money';
import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { BadRequest, Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { PaymentDeclined } from '../lib/payments/gateway';
import { chargeOnce } from '../lib/payments/subscription-changes';
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

const inactive = () =>
  new Conflict('Add-ons can be added to an active subscription only: update your card first if a payment failed.');

export const handler = createHandler(storeRoutes.addStoreSubscriptionAddOn, async ({ params, body, caller }) => {
  const db = getDb();
  const subscription = await requireOwnStoreSubscription(db, params.subscriptionProductId, caller.userId);
  const grade = await readGrade(db, subscription.priceId, true);
  const offer = grade?.plan?.addOns.find((addOn) => addOn.addOnId === body.addOnId);
  if (!grade || !offer) throw new BadRequest(`${grade?.name ?? 'This subscription'} offers no add-on '${body.addOnId}'.`);
  if (body.quantity > offer.maxQuantity) {
    throw new BadRequest(`${grade.name} offers at most ${offer.maxQuantity} of ${offer.name}.`);
  }
  if (subscription.status !== 'Active') throw inactive();
  // Setting the quantity it has already changes nothing and charges nothing.
  if (subscription.addOns?.find((addOn) => addOn.addOnId === offer.addOnId)?.quantity === body.quantity) return true;

  const { merchant, gateway } = await openShopOf(db, subscription);
  // A prorated charge is money moving: one request at a time changes what this subscription is charged.
  const outcome = await chargeOnce(
    db,
    subscription.subscriptionId,
    () => new Date(),
    async () => {
      const before = await gateway.findSubscription(subscription.subscriptionId);
      if (before.status !== 'Active') return { before, updated: null };
      const kept = before.addOns.find((addOn) => addOn.id === offer.addOnId);
      // The same quantity again (a double click, a retry) changes nothing and charges nothing.
      if (kept?.quantity === body.quantity) return { before, updated: before };
      try {
        const updated = await gateway.updateSubscription(subscription.subscriptionId, {
          // Units already bought keep their price; a new add-on takes the grade's.
          addOns: [{ id: offer.addOnId, amount: kept?.amount ?? toDecimalAmount(offer.amountMinor), quantity: body.quantity }],
          // More is charged for the rest of the cycle at once; fewer takes effect from the next cycle, with no refund, as a removal does.
          prorateCharges: body.quantity > (kept?.quantity ?? 0),
        });
        return { before, updated };
      } catch (error) {
        // A declined prorated charge leaves the subscription as it was at the gateway, and nothing was written here.
        if (error instanceof PaymentDeclined) {
          throw new PaymentDeclined(error.reason, `Nothing was added: ${error.message}`, { cause: error });
        }
        throw error;
      }
    },
  );
  if (!outcome.charged) {
    // Another tab changed it meanwhile: answer what it left.
    const current = await gateway.findSubscription(subscription.subscriptionId);
    await applyStoreGatewayState(db, current, new Date(), { merchant, grade });
    if (current.addOns.find((addOn) => addOn.id === offer.addOnId)?.quantity === body.quantity) return true;
    throw new Conflict('This subscription was changed in another tab at the same moment: look at it again.');
  }
  const { before, updated } = outcome.result;
  if (!updated) {
    // Our copy was behind the gateway (a webhook still on its way): catch up, and refuse as above.
    await applyStoreGatewayState(db, before, new Date(), { merchant, grade });
    throw inactive();
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
