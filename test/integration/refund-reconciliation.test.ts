import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { PLATFORM_SELLER_ID } from '../../functions/lib/payments/pro-plan-access';
import { routes } from '../../shared/routes';
import type { ReconciliationReportView } from '../../shared/schemas/billing';
import type { GradeView } from '../../shared/schemas/merchant';
import { expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { advanceGatewayClock, subscribeToPro } from '../support/payments';
import { addGrade, addProduct, openShop, type Shop, shopGatewayOf } from '../support/penpay';

/**
 * Reconciliation of refunds and voids, for both sellers. A file of its own: charges are refunded
 * only once settled, a day later by the local gateway's clock, so this runtime's gateway runs a
 * day ahead and its refunds are a day later than our records of them; every run here compares a
 * window from before the first charge to days ahead, which holds both.
 */
const suite = apiSuite();

let superuser: SignedInUser;
let window: { from: string; to: string };

interface MugShop {
  shop: Shop;
  mug: GradeView;
}

/** An order of one mug ($15.00, one sale) paid through the real route. */
interface MugOrder {
  buyer: SignedInUser;
  invoiceId: string;
  saleId: string;
}

/** A person on monthly Pro ($12.00, one charge). */
interface ProCharge {
  person: SignedInUser;
  transactionId: string;
}

async function mugShop(label: string): Promise<MugShop> {
  const shop = await openShop(suite, label);
  const product = await addProduct(suite, shop, 'Mug');
  return { shop, mug: await addGrade(suite, shop, product, 'Large', 1_500) };
}

async function buyMug({ shop, mug }: MugShop, label: string): Promise<MugOrder> {
  const buyer = await suite.api.signIn(label);
  expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: mug.id, quantity: 1 }, as: buyer }));
  const cart = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id }, as: buyer });
  expectOk(cart);
  const invoiceId = cart.body.invoice?.id as string;
  const paid = await suite.api.call(routes.fulfillStoreInvoice, {
    params: { invoiceId },
    body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
    as: buyer,
  });
  expectOk(paid);
  const { data: invoice } = await getDb().entities.invoice.get({ invoiceId }).go({ consistent: true });
  return { buyer, invoiceId, saleId: invoice?.transactionId as string };
}

async function proCharge(label: string): Promise<ProCharge> {
  const person = await suite.api.signIn(label);
  await subscribeToPro(suite.api, person);
  const found = await suite.api.call(routes.listProPaymentsOfPerson, { query: { person: person.username }, as: superuser });
  expectOk(found);
  const transactionId = found.body.charges[0]?.payment.transactionId;
  if (!transactionId) throw new Error(`No Pro charge for ${label}`);
  return { person, transactionId };
}

const refundOrder = async (shop: Shop, order: MugOrder, body: { reason: string; amountMinor?: number }) => {
  const answer = await suite.api.call(routes.refundStoreOrder, { params: { invoiceId: order.invoiceId }, body, as: shop.owner });
  expectOk(answer);
  return answer.body;
};

const refundPro = async (charge: ProCharge, body: { reason: string; amountMinor?: number }) => {
  const answer = await suite.api.call(routes.refundProCharge, {
    params: { transactionId: charge.transactionId },
    body,
    as: superuser,
  });
  expectOk(answer);
  return answer.body;
};

async function reconcileNow(sellerId: string): Promise<ReconciliationReportView> {
  const answer = await suite.api.call(routes.runReconciliation, { body: { sellerId, ...window }, as: superuser });
  expectOk(answer);
  return answer.body;
}

let matchingShop: MugShop;
let differingShop: MugShop;
/** Settled (made before the clock moved a day): refunded. */
let settledOrder: MugOrder;
let settledOutsideOrder: MugOrder;
let settledPro: ProCharge;
let settledOutsidePro: ProCharge;
/** Not settled (made after): voided. */
let unsettledOrder: MugOrder;
let voidedElsewhereOrder: MugOrder;
let unsettledPro: ProCharge;

beforeAll(async () => {
  const startedAt = Date.now();
  superuser = await suite.api.signIn('refund-reconciler', { superuser: true });
  [matchingShop, differingShop] = await Promise.all([mugShop('refunds-matching'), mugShop('refunds-differing')]);
  [settledOrder, settledOutsideOrder, settledPro, settledOutsidePro] = await Promise.all([
    buyMug(matchingShop, 'settled-mug-buyer'),
    buyMug(differingShop, 'outside-mug-buyer'),
    proCharge('settled-pro'),
    proCharge('outside-pro'),
  ]);
  await advanceGatewayClock(suite.runtime, 1);
  [unsettledOrder, voidedElsewhereOrder, unsettledPro] = await Promise.all([
    buyMug(matchingShop, 'unsettled-mug-buyer'),
    buyMug(differingShop, 'voided-elsewhere-buyer'),
    proCharge('unsettled-pro'),
  ]);
  window = { from: new Date(startedAt - 60_000).toISOString(), to: new Date(Date.now() + 3 * 86_400_000).toISOString() };
});

describe('reconciling a shop’s refunds and voids', () => {
  it('matches a sale voided by our void and a settled sale refunded in part, and counts both sides', async () => {
    // Prepare
    const voided = await refundOrder(matchingShop.shop, unsettledOrder, { reason: 'Changed their mind' });
    const refunded = await refundOrder(matchingShop.shop, settledOrder, { reason: 'Chipped', amountMinor: 500 });

    // Act
    const report = await reconcileNow(matchingShop.shop.merchant.id);

    // Assess: the voided sale is no longer a charge that took no money, and the refund is the gateway's.
    expect(voided.refund.status).toBe('succeeded');
    expect(refunded.refund.status).toBe('succeeded');
    expect(report).toMatchObject({
      outcome: 'matched',
      differences: [],
      compared: { recordedCharges: 2, gatewayCharges: 1, subscriptions: 0, recordedRefunds: 2, gatewayRefunds: 1 },
    });
  });

  it('reports a refund made at the gateway we have no record of, a completed refund of ours the gateway does not have, and a void that is not ours', async () => {
    // Prepare: the shop refunds $3.00 in its Control Panel; a refund of ours names a credit that
    // was never made; the shop voids a sale in its Control Panel.
    const gateway = await shopGatewayOf(suite, differingShop.shop.merchant.id);
    const outside = await gateway.refundTransaction({
      transactionId: settledOutsideOrder.saleId,
      amount: '3.00',
      orderId: 'refunded-in-the-control-panel',
    });
    const plantedAt = new Date().toISOString();
    await getDb()
      .entities.storeRefund.create({
        invoiceId: settledOutsideOrder.invoiceId,
        number: 9,
        refundId: `${settledOutsideOrder.invoiceId}_r9`,
        merchantAccountId: differingShop.shop.merchant.id,
        customerId: settledOutsideOrder.buyer.userId,
        requestedBy: differingShop.shop.owner.userId,
        scope: 'amount',
        fingerprint: 'planted',
        reason: 'Planted by the reconciliation test',
        amountMinor: 200,
        currency: 'USD',
        cancelSubscription: false,
        parts: [
          {
            transactionId: settledOutsideOrder.saleId,
            operation: 'refund',
            amountMinor: 200,
            status: 'succeeded',
            gatewayId: 'never-made',
          },
        ],
        status: 'succeeded',
        attempt: 1,
        claimedUntil: plantedAt,
        createdAt: plantedAt,
        updatedAt: plantedAt,
      })
      .go();
    await gateway.voidTransaction(voidedElsewhereOrder.saleId);

    // Act
    const report = await reconcileNow(differingShop.shop.merchant.id);

    // Assess
    expect(report.outcome).toBe('differences');
    expect(report.differences).toEqual([
      expect.objectContaining({
        kind: 'record_without_charge',
        mismatch: 'not_money_taken',
        transactionId: voidedElsewhereOrder.saleId,
        gateway: expect.objectContaining({ status: 'voided' }),
      }),
      {
        kind: 'refund_not_recorded',
        transactionId: settledOutsideOrder.saleId,
        refundId: 'refunded-in-the-control-panel',
        refundTransactionId: outside.id,
        gateway: {
          status: 'submitted_for_settlement',
          amountMinor: 300,
          currency: 'USD',
          at: outside.createdAt,
          refundOf: settledOutsideOrder.saleId,
        },
      },
      {
        kind: 'record_without_refund',
        mismatch: 'missing_at_gateway',
        transactionId: settledOutsideOrder.saleId,
        customerId: settledOutsideOrder.buyer.userId,
        refundId: `${settledOutsideOrder.invoiceId}_r9-1`,
        ours: { status: 'succeeded', amountMinor: 200, currency: 'USD', at: plantedAt, refundOf: settledOutsideOrder.saleId },
      },
    ]);
    expect(report.compared).toMatchObject({ recordedRefunds: 1, gatewayRefunds: 1 });
  });
});

describe('reconciling the Pro plan’s refunds and voids', () => {
  it('matches a charge voided by our void; reports a refund whose amount differs and one made outside the product', async () => {
    // Prepare: a superuser voids one charge and refunds another whole; the record of that refund
    // then says $11.00; someone refunds $2.00 of a third charge in the Control Panel.
    const voided = await refundPro(unsettledPro, { reason: 'Charged by mistake' });
    const refunded = await refundPro(settledPro, { reason: 'Asked for a refund' });
    await getDb()
      .entities.proRefund.patch({ transactionId: settledPro.transactionId, number: 1 })
      .set({ amountMinor: 1_100 })
      .go();
    const gateway = createLocalPaymentGateway(suite.runtime.paymentGatewayEndpoint);
    const outside = await gateway.refundTransaction({
      transactionId: settledOutsidePro.transactionId,
      amount: '2.00',
      orderId: 'pro-refunded-in-the-control-panel',
    });

    // Act
    const report = await reconcileNow(PLATFORM_SELLER_ID);

    // Assess: nothing about the voided charge; the two refunds that differ, each with both sides.
    expect(voided.refund).toMatchObject({ operation: 'void', status: 'succeeded' });
    expect(refunded.refund).toMatchObject({ operation: 'refund', status: 'succeeded' });
    expect(report.differences).toEqual([
      {
        kind: 'refund_not_recorded',
        transactionId: settledOutsidePro.transactionId,
        refundId: 'pro-refunded-in-the-control-panel',
        refundTransactionId: outside.id,
        gateway: expect.objectContaining({ amountMinor: 200, refundOf: settledOutsidePro.transactionId }),
      },
      expect.objectContaining({
        kind: 'record_without_refund',
        mismatch: 'amount_differs',
        transactionId: settledPro.transactionId,
        customerId: settledPro.person.userId,
        refundId: `${settledPro.transactionId}_r1`,
        ours: expect.objectContaining({ amountMinor: 1_100 }),
        gateway: expect.objectContaining({ amountMinor: 1_200, refundOf: settledPro.transactionId }),
      }),
    ]);
    expect(report.compared).toMatchObject({ recordedCharges: 3, gatewayCharges: 2, recordedRefunds: 2, gatewayRefunds: 2 });
  });
});
