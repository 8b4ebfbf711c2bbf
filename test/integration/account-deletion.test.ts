import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import { routes } from '../../shared/routes';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { paymentsOf, subscribeToPro } from '../support/payments';
import { addGrade, addProduct, expectMessage, openShop } from '../support/penpay';

const suite = apiSuite();

const SUBJECT = 'Your TopPubs account was deleted';

const deletionMailsTo = async (address: string) =>
  (await mailsTo(suite.runtime.mailDir, address)).filter((mail) => mail.headers.subject === SUBJECT);

/** A shop of the user's, as registering one leaves it, billing `subscribers` people now. */
async function giveShop(user: SignedInUser, shopName: string, subscribers: number): Promise<void> {
  const db = getDb();
  const merchantAccountId = randomUUID();
  const now = new Date().toISOString();
  await db.entities.merchantAccount
    .create({
      merchantAccountId,
      ownerId: user.userId,
      handle: `shop-${merchantAccountId.slice(0, 8)}`,
      shopName,
      currency: 'EUR',
      createdAt: now,
      updatedAt: now,
    })
    .go();
  await db.entities.merchantOwner.create({ ownerId: user.userId, merchantAccountId }).go();
  await db.entities.storeFigure
    .create({ merchantAccountId, scope: shopScope, period: 'total', activeSubscriptions: subscribers, pastDueSubscriptions: 0 })
    .go();
}

describe('the confirmation of a deleted account', () => {
  it('is emailed once, to the address the account had, saying what went and what stayed, with no link', async () => {
    // Prepare
    const me = await suite.api.signIn('deleted-mail');

    // Act: deleted, then the same request again (a retry), which finds no account.
    const deleted = await suite.api.call(routes.deleteAccount, { as: me });
    const retried = await suite.api.call(routes.deleteAccount, { as: me });
    const mails = await deletionMailsTo(me.email);

    // Assess
    expectOk(deleted);
    expectError(retried, 401);
    expect(mails).toHaveLength(1);
    const text = mails[0]?.text ?? '';
    expect(text).toContain(`@${me.username} was deleted`);
    expect(text).toContain('Deleted:');
    expect(text).toContain('every session');
    expect(text).toContain('Kept:');
    expect(text).not.toContain('Canceled');
    expect(text).not.toContain('shop');
    expect(`${text}${mails[0]?.html ?? ''}`).not.toMatch(/https?:\/\//);
  });

  it('names the Pro plan it canceled, and says paid time is not refunded', async () => {
    // Prepare
    const me = await suite.api.signIn('deleted-pro');
    await subscribeToPro(suite.api, me);

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: me });
    const mails = await deletionMailsTo(me.email);

    // Assess
    expectOk(deleted);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('Canceled, so nothing more will be charged: the TopPubs Pro plan.');
    expect(mails[0]?.text).toContain('Time already paid for is not refunded.');
  });

  it('says the shop closed with it when it billed nobody', async () => {
    // Prepare
    const me = await suite.api.signIn('deleted-shop');
    await giveShop(me, 'Quiet Corner', 0);

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: me });
    const mails = await deletionMailsTo(me.email);

    // Assess
    expectOk(deleted);
    expect(mails[0]?.text).toContain('Your shop "Quiet Corner" is closed: it is no longer shown to anyone and sells nothing.');
    expect(mails[0]?.text).not.toContain('was not deleted');
  });
});

describe('the shop of a deleted account that bills nobody', () => {
  it('closes with the account: its pages say so, nothing can be added, and a cart at it cannot be paid', async () => {
    // Prepare: a shop selling a mug, and a customer with the mug in their cart and its invoice open.
    const shop = await openShop(suite, 'closing-shop');
    const mug = await addProduct(suite, shop, 'Mug');
    const large = await addGrade(suite, shop, mug, 'Large', 1_500);
    const buyer = await suite.api.signIn('closing-shop-buyer');
    const add = () => suite.api.call(routes.addCartItem, { body: { productStockGradeId: large.id, quantity: 1 }, as: buyer });
    const cartAtShop = () => suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id }, as: buyer });
    expectOk(await add());
    const before = await cartAtShop();
    expectOk(before);
    const openInvoice = before.body.invoice;
    expect(openInvoice).not.toBeNull();

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: shop.owner });
    const [byId, byHandle, products, product, grade, grades, addedAgain, cart, paid] = await Promise.all([
      suite.api.call(routes.getShop, { params: { merchantAccountId: shop.merchant.id } }),
      suite.api.call(routes.getShop, { params: { merchantAccountId: shop.merchant.handle } }),
      suite.api.call(routes.listShopProducts, { params: { merchantAccountId: shop.merchant.handle } }),
      suite.api.call(routes.getProduct, { params: { productStockId: mug.id } }),
      suite.api.call(routes.getProductGrade, { params: { productStockId: mug.id, productStockGradeId: large.id } }),
      suite.api.call(routes.listProductGrades, { params: { productStockId: mug.id } }),
      add(),
      cartAtShop(),
      suite.api.call(routes.fulfillStoreInvoice, {
        params: { invoiceId: openInvoice?.id ?? 'none' },
        body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
        as: buyer,
      }),
    ]);

    // Assess
    expectOk(deleted);
    for (const answer of [byId, byHandle, products, product, grade, grades, addedAgain]) {
      expectError(answer, 404);
      expectMessage(answer, /this shop has closed/i);
    }
    expectOk(cart);
    expect(cart.body.shop.acceptsPayments).toBe(false);
    expect(cart.body.items.map((item) => item.status)).toEqual(['unavailable']);
    expect(cart.body.invoice).toBeNull();
    expectError(paid, 409);
    expectMessage(paid, /shop is closed: nothing was charged/i);
    expect(await paymentsOf(buyer.userId)).toEqual([]);
  });
});

describe('deleting the account of a shop that bills subscribers', () => {
  it('is refused with what to do first, keeps the account and sends no confirmation', async () => {
    // Prepare
    const me = await suite.api.signIn('busy-shop');
    await giveShop(me, 'Busy Corner', 2);

    // Act
    const refused = await suite.api.call(routes.deleteAccount, { as: me });
    const still = await suite.api.call(routes.getMe, { as: me });

    // Assess
    expectError(refused, 409);
    expect(refused.text).toContain('SHOP_HAS_SUBSCRIBERS');
    expect(refused.text).toContain('Busy Corner');
    expect(refused.text).toContain('2 subscribers');
    expectOk(still);
    expect(await deletionMailsTo(me.email)).toHaveLength(0);
  });
});
