import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import type { GradeView } from '../../shared/schemas/merchant';
import { expectError, expectOk, invalid, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { addGrade, addProduct, expectMessage, openShop, type Shop } from '../support/penpay';

const suite = apiSuite({ edgeCache: false });

/**
 * Finding one's carts again (the open-carts list) and setting a line's quantity: two shops, and
 * customers who each start with an empty cart, so no test depends on another's leftovers.
 */
let paper: Shop;
let ink: Shop;
let pocket: GradeView;
let club: GradeView;
let retired: GradeView;
let bottle: GradeView;

beforeAll(async () => {
  [paper, ink] = await Promise.all([openShop(suite, 'cartpaper'), openShop(suite, 'cartink')]);
  const [notebook, inkPot] = await Promise.all([addProduct(suite, paper, 'Notebook'), addProduct(suite, ink, 'Ink')]);
  pocket = await addGrade(suite, paper, notebook, 'Pocket', 1_200);
  club = await addGrade(suite, paper, notebook, 'Club', 900, { plan: 'monthly' });
  retired = await addGrade(suite, paper, notebook, 'Retired', 800);
  bottle = await addGrade(suite, ink, inkPot, 'Bottle', 600);
});

const add = async (customer: SignedInUser, productStockGradeId: string, quantity = 1) => {
  const answer = await suite.api.call(routes.addCartItem, { body: { productStockGradeId, quantity }, as: customer });
  expectOk(answer);
  return answer.body;
};
const setQuantity = (customer: SignedInUser, cartItemId: string, quantity: number) =>
  suite.api.call(routes.updateCartItemQuantity, { params: { cartItemId }, body: { quantity }, as: customer });
const cartsOf = async (customer: SignedInUser) => {
  const answer = await suite.api.call(routes.listMyCarts, { as: customer });
  expectOk(answer);
  return answer.body.items;
};

describe("the caller's open carts", () => {
  it('lists each shop the caller has items at, last added to first, with item and line counts', async () => {
    // Prepare
    const cleo = await suite.api.signIn('cleo');
    const none = await cartsOf(cleo);
    await add(cleo, pocket.id, 2);
    await add(cleo, club.id);
    await add(cleo, bottle.id, 4);

    // Act
    const carts = await cartsOf(cleo);

    // Assess
    expect(none).toEqual([]);
    expect(carts).toEqual([
      {
        merchantAccountId: ink.merchant.id,
        shop: { id: ink.merchant.id, handle: ink.merchant.handle, shopName: 'cartink shop' },
        itemCount: 4,
        lineCount: 1,
        unavailableLineCount: 0,
        lastAddedAt: expect.any(String),
      },
      {
        merchantAccountId: paper.merchant.id,
        shop: { id: paper.merchant.id, handle: paper.merchant.handle, shopName: 'cartpaper shop' },
        itemCount: 3,
        lineCount: 2,
        unavailableLineCount: 0,
        lastAddedAt: expect.any(String),
      },
    ]);
  });

  it('shows the caller their own carts only, drops a cart once emptied, and is not for visitors', async () => {
    // Prepare
    const [dana, eli] = await Promise.all([suite.api.signIn('dana'), suite.api.signIn('eli')]);
    const item = await add(dana, pocket.id);

    // Act
    const danas = await cartsOf(dana);
    const elis = await cartsOf(eli);
    const signedOut = await suite.api.call(routes.listMyCarts, {});
    expectOk(await suite.api.call(routes.removeCartItem, { params: { cartItemId: item.id }, as: dana }));
    const afterEmptying = await cartsOf(dana);

    // Assess
    expect(danas.map((cart) => [cart.merchantAccountId, cart.itemCount])).toEqual([[paper.merchant.id, 1]]);
    expect(elis).toEqual([]);
    expectError(signedOut, 401);
    expect(afterEmptying).toEqual([]);
  });
});

describe('what the open carts count', () => {
  it('counts only what can still be bought: lines no longer sold are counted apart, not charged, and can be removed', async () => {
    // Prepare: a shop of its own whose pens stop being sold and whose stamp becomes private; its stickers stay on sale.
    const shop = await openShop(suite, 'cartcount');
    const [pens, stamp, sticker] = await Promise.all([
      addProduct(suite, shop, 'Pens'),
      addProduct(suite, shop, 'Stamp'),
      addProduct(suite, shop, 'Sticker'),
    ]);
    const [fine, round, small] = await Promise.all([
      addGrade(suite, shop, pens, 'Fine', 300),
      addGrade(suite, shop, stamp, 'Round', 500),
      addGrade(suite, shop, sticker, 'Small', 100),
    ]);
    const lee = await suite.api.signIn('lee');
    const penLine = await add(lee, fine.id, 2);
    await add(lee, round.id, 3);
    await add(lee, small.id, 4);
    const before = await cartsOf(lee);
    expectOk(await suite.api.call(routes.unstockProduct, { params: { productStockId: pens.id }, as: shop.owner }));
    expectOk(
      await suite.api.call(routes.setProductVisibility, {
        params: { productStockId: stamp.id, visibility: 'private' },
        as: shop.owner,
      }),
    );

    // Act
    const after = await cartsOf(lee);
    const cart = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id }, as: lee });
    const removed = await suite.api.call(routes.removeCartItem, { params: { cartItemId: penLine.id }, as: lee });
    const afterRemoving = await cartsOf(lee);

    // Assess
    expect(
      before.map(({ itemCount, lineCount, unavailableLineCount }) => ({ itemCount, lineCount, unavailableLineCount })),
    ).toEqual([{ itemCount: 9, lineCount: 3, unavailableLineCount: 0 }]);
    expect(
      after.map(({ itemCount, lineCount, unavailableLineCount }) => ({ itemCount, lineCount, unavailableLineCount })),
    ).toEqual([{ itemCount: 4, lineCount: 3, unavailableLineCount: 2 }]);
    expectOk(cart);
    expect(cart.body.items.map((item) => [item.gradeName, item.status])).toEqual([
      ['Fine', 'unavailable'],
      ['Round', 'unavailable'],
      ['Small', 'ok'],
    ]);
    expect(cart.body.invoice?.total.amountMinor).toBe(400);
    expectOk(removed);
    expect(removed.body.status).toBe('unavailable');
    expect(
      afterRemoving.map(({ itemCount, lineCount, unavailableLineCount }) => ({ itemCount, lineCount, unavailableLineCount })),
    ).toEqual([{ itemCount: 4, lineCount: 2, unavailableLineCount: 1 }]);
  });
});

describe("setting a cart line's quantity", () => {
  it('sets (not adds) the quantity, priced by the server, and the open-carts count follows', async () => {
    // Prepare
    const finn = await suite.api.signIn('finn');
    const item = await add(finn, pocket.id, 2);

    // Act
    const up = await setQuantity(finn, item.id, 5);
    const down = await setQuantity(finn, item.id, 3);
    const carts = await cartsOf(finn);
    const cart = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: paper.merchant.id }, as: finn });

    // Assess
    expectOk(up);
    expect(up.body).toMatchObject({ id: item.id, quantity: 5, unitPrice: { amountMinor: 1_200, currency: 'USD' } });
    expectOk(down);
    expect(down.body.quantity).toBe(3);
    expect(carts[0]?.itemCount).toBe(3);
    expectOk(cart);
    expect(cart.body.invoice?.total.amountMinor).toBe(3_600);
  });

  it('keeps to 1 to 99 with a clear 400, a subscription to 1, and changes nothing when refused', async () => {
    // Prepare
    const gus = await suite.api.signIn('gus');
    const item = await add(gus, pocket.id, 2);
    const subscription = await add(gus, club.id);

    // Act
    const zero = await setQuantity(gus, item.id, 0);
    const tooMany = await setQuantity(gus, item.id, 100);
    const fraction = await setQuantity(gus, item.id, 1.5);
    const notANumber = await setQuantity(gus, item.id, invalid('3'));
    const extraField = await suite.api.call(routes.updateCartItemQuantity, {
      params: { cartItemId: item.id },
      body: invalid({ quantity: 2, price: 1 }),
      as: gus,
    });
    const notAnId = await setQuantity(gus, invalid('item-1'), 2);
    const twoSubscriptions = await setQuantity(gus, subscription.id, 2);
    const afterRefusals = await cartsOf(gus);
    const max = await setQuantity(gus, item.id, 99);

    // Assess
    expectError(zero, 400);
    expectMessage(zero, /at least 1/i);
    expectError(tooMany, 400);
    expectMessage(tooMany, /at most 99/i);
    expectError(fraction, 400);
    expectMessage(fraction, /whole number/i);
    expectError(notANumber, 400);
    expectError(extraField, 400);
    expectError(notAnId, 400);
    expectError(twoSubscriptions, 400);
    expectMessage(twoSubscriptions, /one at a time/i);
    expect(afterRefusals.map((cart) => cart.itemCount)).toEqual([3]);
    expectOk(max);
    expect(max.body.quantity).toBe(99);
  });

  it('refuses a grade no longer sold with the reason', async () => {
    // Prepare
    const hal = await suite.api.signIn('hal');
    const item = await add(hal, retired.id, 2);
    expectOk(await suite.api.call(routes.unstockGrade, { params: { productStockGradeId: retired.id }, as: paper.owner }));

    // Act
    const refused = await setQuantity(hal, item.id, 3);

    // Assess
    expectError(refused, 400);
    expectMessage(refused, /Notebook — Retired is no longer sold/);
  });

  it("never changes another user's cart: their line is not found, and stays as it was", async () => {
    // Prepare
    const [ivy, jon] = await Promise.all([suite.api.signIn('ivy'), suite.api.signIn('jon')]);
    const ivysItem = await add(ivy, bottle.id, 2);

    // Act
    const byJon = await setQuantity(jon, ivysItem.id, 7);
    const signedOut = await suite.api.call(routes.updateCartItemQuantity, {
      params: { cartItemId: ivysItem.id },
      body: { quantity: 7 },
    });
    const ivysCarts = await cartsOf(ivy);
    const jonsCarts = await cartsOf(jon);

    // Assess
    expectError(byJon, 404);
    expectMessage(byJon, /not in your cart/);
    expect(signedOut.status).toBe(401);
    expect(ivysCarts.map((cart) => cart.itemCount)).toEqual([2]);
    expect(jonsCarts).toEqual([]);
  });

  it('answers 404 for a line removed already', async () => {
    // Prepare
    const kim = await suite.api.signIn('kim');
    const item = await add(kim, pocket.id);
    expectOk(await suite.api.call(routes.removeCartItem, { params: { cartItemId: item.id }, as: kim }));

    // Act
    const gone = await setQuantity(kim, item.id, 2);

    // Assess
    expectError(gone, 404);
  });
});
