import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import type { GradeView, ProductStockView } from '../../shared/schemas/merchant';
import { expectError, expectOk, invalid, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { addGrade, addProduct, expectMessage, openShop, type Shop } from '../support/penpay';

// The handlers' own answers: the edge cache (on by default) would answer a page again for a minute after a change.
const suite = apiSuite({ edgeCache: false });

/**
 * One shop with a catalog covering every visibility and stock state, a second shop that takes
 * no payments, and two customers.
 */
let shop: Shop;
let unconnected: Shop;
let ana: SignedInUser;
let bo: SignedInUser;
let notebook: ProductStockView;
let pocket: GradeView;
let deluxe: GradeView;
let club: GradeView;
let draftGrade: GradeView;
let secretGrade: GradeView;
let retiredGrade: GradeView;
let poster: ProductStockView;
let posterA2: GradeView;
let linkOnly: ProductStockView;
let linkOnlyGrade: GradeView;
let draftProduct: ProductStockView;
let draftProductGrade: GradeView;
let retiredProduct: ProductStockView;
let retiredProductGrade: GradeView;
let elsewhereGrade: GradeView;

beforeAll(async () => {
  [shop, unconnected, ana, bo] = await Promise.all([
    openShop(suite, 'paper'),
    openShop(suite, 'noconnect', { connect: false }),
    suite.api.signIn('ana'),
    suite.api.signIn('bo'),
  ]);
  [notebook, poster, linkOnly, draftProduct, retiredProduct] = await Promise.all([
    addProduct(suite, shop, 'Notebook', { featured: true, position: 5 }),
    addProduct(suite, shop, 'Poster', { position: 1 }),
    addProduct(suite, shop, 'Link-only print', { visibility: 'unlisted' }),
    addProduct(suite, shop, 'Draft calendar', { visibility: 'private' }),
    addProduct(suite, shop, 'Retired planner', { position: 2 }),
  ]);
  // One after another: each grade written recomputes its product's summary (grade count, lowest price) from the others.
  pocket = await addGrade(suite, shop, notebook, 'Pocket', 1_200, { position: 1 });
  deluxe = await addGrade(suite, shop, notebook, 'Deluxe', 3_400, { position: 2 });
  club = await addGrade(suite, shop, notebook, 'Club', 900, { plan: 'monthly', position: 3 });
  draftGrade = await addGrade(suite, shop, notebook, 'Draft', 500, { visibility: 'private', position: 4 });
  secretGrade = await addGrade(suite, shop, notebook, 'Secret', 700, { visibility: 'unlisted', position: 5 });
  retiredGrade = await addGrade(suite, shop, notebook, 'Retired', 800, { position: 6 });
  [posterA2, linkOnlyGrade, draftProductGrade, retiredProductGrade] = await Promise.all([
    addGrade(suite, shop, poster, 'A2', 1_500),
    addGrade(suite, shop, linkOnly, 'Signed', 4_000),
    addGrade(suite, shop, draftProduct, 'Wall', 1_000),
    addGrade(suite, shop, retiredProduct, 'Weekly', 1_100),
  ]);
  const elsewhere = await addProduct(suite, unconnected, 'Unsold mug');
  elsewhereGrade = await addGrade(suite, unconnected, elsewhere, 'Large', 1_000);
  const [unstockGrade, unstockProduct] = await Promise.all([
    suite.api.call(routes.unstockGrade, { params: { productStockGradeId: retiredGrade.id }, as: shop.owner }),
    suite.api.call(routes.unstockProduct, { params: { productStockId: retiredProduct.id }, as: shop.owner }),
  ]);
  expectOk(unstockGrade);
  expectOk(unstockProduct);
});

const cartOf = async (customer: SignedInUser, merchantAccountId = shop.merchant.id) => {
  const answer = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId }, as: customer });
  expectOk(answer);
  return answer.body;
};
const add = (customer: SignedInUser, productStockGradeId: string, quantity?: number) =>
  suite.api.call(routes.addCartItem, {
    body: { productStockGradeId, ...(quantity === undefined ? {} : { quantity }) },
    as: customer,
  });
const setPrice = async (grade: GradeView, amountMinor: number) =>
  expectOk(
    await suite.api.call(routes.updateGradeCost, {
      params: { productStockId: grade.productStockId, productStockGradeId: grade.id },
      body: { amountMinor },
      as: shop.owner,
    }),
  );
const emptyCart = async (customer: SignedInUser) => {
  const { items } = await cartOf(customer);
  for (const item of items) {
    expectOk(await suite.api.call(routes.removeCartItem, { params: { cartItemId: item.id }, as: customer }));
  }
};

describe('a shop as customers see it', () => {
  it('answers the shop by its id and by its handle, to anyone, with a public cache header; an unknown one is 404', async () => {
    // Act
    const byId = await suite.api.call(routes.getShop, { params: { merchantAccountId: shop.merchant.id } });
    const byHandle = await suite.api.call(routes.getShop, { params: { merchantAccountId: shop.merchant.handle } });
    const notConnected = await suite.api.call(routes.getShop, { params: { merchantAccountId: unconnected.merchant.handle } });
    const unknown = await suite.api.call(routes.getShop, { params: { merchantAccountId: 'no-such-shop' } });

    // Assess
    expectOk(byId);
    expectOk(byHandle);
    expect(byHandle.body).toEqual(byId.body);
    expect(byId.body).toMatchObject({ id: shop.merchant.id, shopName: 'paper shop', currency: 'USD', acceptsPayments: true });
    expect(byId.text).not.toMatch(/privateKey|publicKey|ownerId/);
    expect(byId.headers.get('cache-control')).toMatch(/public, .*s-maxage=60/);
    expectOk(notConnected);
    expect(notConnected.body.acceptsPayments).toBe(false);
    expectError(unknown, 404);
  });

  it('lists only its public stocked products, featured first then by position, each priced from its cheapest grade', async () => {
    // Act
    const listed = await suite.api.call(routes.listShopProducts, { params: { merchantAccountId: shop.merchant.handle } });
    const unknown = await suite.api.call(routes.listShopProducts, { params: { merchantAccountId: 'mer_aaaaaaaaaaaaaaaaaaaa' } });

    // Assess
    expectOk(listed);
    expect(listed.body.items.map((product) => product.title)).toEqual(['Notebook', 'Poster']);
    // Unlisted grades are sold (by link), so they count in "from".
    expect(listed.body.items[0]).toMatchObject({ gradeCount: 6, priceFrom: { amountMinor: 700, currency: 'USD' } });
    expect(listed.body.cursor).toBeNull();
    expectError(unknown, 404);
  });

  it('pages a long shelf 20 at a time and refuses a page link made up for another shop', async () => {
    // Prepare
    const big = await openShop(suite, 'bigshelf', { connect: false });
    await Promise.all(Array.from({ length: 23 }, (_, index) => addProduct(suite, big, `Item ${index}`, { position: index })));
    const first = await suite.api.call(routes.listShopProducts, { params: { merchantAccountId: big.merchant.id } });
    expectOk(first);
    const forged = Buffer.from(JSON.stringify({ gsi2pk: shop.merchant.id, gsi2sk: 'x', pk: 'y', sk: 'z' })).toString('base64url');

    // Act
    const second = await suite.api.call(routes.listShopProducts, {
      params: { merchantAccountId: big.merchant.id },
      query: { cursor: first.body.cursor ?? undefined },
    });
    const refused = await suite.api.call(routes.listShopProducts, {
      params: { merchantAccountId: big.merchant.id },
      query: { cursor: forged },
    });

    // Assess
    expect(first.body.items).toHaveLength(20);
    expect(first.body.cursor).not.toBeNull();
    expectOk(second);
    expect(second.body.items.map((product) => product.title)).toEqual(['Item 20', 'Item 21', 'Item 22']);
    expectError(refused, 400);
  });

  it('shows a product with its public grades in display order, which of them can be bought, and keeps drafts from customers', async () => {
    // Act
    const page = await suite.api.call(routes.getProduct, { params: { productStockId: notebook.id }, as: ana });
    const grades = await suite.api.call(routes.listProductGrades, { params: { productStockId: notebook.id } });

    // Assess
    expectOk(page);
    expect(page.body.shop.id).toBe(shop.merchant.id);
    expect(page.body.product).toMatchObject({ id: notebook.id, title: 'Notebook' });
    expect(page.body.grades.map((grade) => [grade.name, grade.purchasable])).toEqual([
      ['Pocket', true],
      ['Deluxe', true],
      ['Club', true],
      ['Retired', false],
    ]);
    expect(page.body.grades[2]?.billing).toMatchObject({
      kind: 'subscription',
      braintreePlanId: 'monthly',
      billingFrequencyMonths: 1,
    });
    expect(page.text).not.toContain('Draft');
    expect(page.text).not.toContain('Secret');
    expect(page.headers.get('cache-control')).toMatch(/public/);
    expectOk(grades);
    expect(grades.body.items).toEqual(page.body.grades);
  });

  it('answers an unlisted product or grade to whoever has its link, and a private one to its merchant only', async () => {
    // Act
    const unlisted = await suite.api.call(routes.getProduct, { params: { productStockId: linkOnly.id } });
    const secret = await suite.api.call(routes.getProductGrade, {
      params: { productStockId: notebook.id, productStockGradeId: secretGrade.id },
    });
    const draftToCustomer = await suite.api.call(routes.getProduct, { params: { productStockId: draftProduct.id }, as: ana });
    const draftGradeToCustomer = await suite.api.call(routes.getProductGrade, {
      params: { productStockId: notebook.id, productStockGradeId: draftGrade.id },
    });
    const draftGradesToAnyone = await suite.api.call(routes.listProductGrades, { params: { productStockId: draftProduct.id } });
    const draftToMerchant = await suite.api.call(routes.getProduct, {
      params: { productStockId: draftProduct.id },
      as: shop.owner,
    });
    const notebookToMerchant = await suite.api.call(routes.getProduct, {
      params: { productStockId: notebook.id },
      as: shop.owner,
    });
    const made_up = await suite.api.call(routes.getProduct, { params: { productStockId: 'prd_aaaaaaaaaaaaaaaaaaaa' } });

    // Assess
    expectOk(unlisted);
    expect(unlisted.body.grades.map((grade) => [grade.id, grade.purchasable])).toEqual([[linkOnlyGrade.id, true]]);
    expectOk(secret);
    expect(secret.body.grade).toMatchObject({ name: 'Secret', visibility: 'unlisted', purchasable: true });
    expectError(draftToCustomer, 404);
    expectError(draftGradeToCustomer, 404);
    expectError(draftGradesToAnyone, 404);
    expectError(made_up, 404);
    expect(draftToCustomer.body).toEqual(made_up.body);
    expectOk(draftToMerchant);
    expect(draftToMerchant.body.grades.map((grade) => [grade.name, grade.purchasable])).toEqual([['Wall', false]]);
    // The merchant's own view holds drafts: it must never be kept and served to someone else.
    expect(draftToMerchant.headers.get('cache-control')).toBe('no-store');
    expectOk(notebookToMerchant);
    expect(notebookToMerchant.body.grades.map((grade) => grade.name)).toEqual(
      expect.arrayContaining(['Pocket', 'Draft', 'Secret', 'Retired']),
    );
    expect(notebookToMerchant.headers.get('cache-control')).toBe('no-store');
  });

  it('still shows an unstocked product and grade (its subscribers keep seeing them), with nothing to buy', async () => {
    // Act
    const product = await suite.api.call(routes.getProduct, { params: { productStockId: retiredProduct.id } });
    const grade = await suite.api.call(routes.getProductGrade, {
      params: { productStockId: notebook.id, productStockGradeId: retiredGrade.id },
    });
    const underAnotherProduct = await suite.api.call(routes.getProductGrade, {
      params: { productStockId: poster.id, productStockGradeId: pocket.id },
    });

    // Assess
    expectOk(product);
    expect(product.body.product).toMatchObject({ stocked: false, priceFrom: null });
    expect(product.body.grades.map((entry) => [entry.name, entry.purchasable])).toEqual([['Weekly', false]]);
    expectOk(grade);
    expect(grade.body.grade).toMatchObject({ name: 'Retired', stocked: false, purchasable: false });
    expectError(underAnotherProduct, 404);
  });
});

describe('a customer’s cart', () => {
  it('adds a one-time grade, adds to its quantity when added again, and refuses to pass 99 without changing anything', async () => {
    // Prepare
    await emptyCart(ana);

    // Act
    const first = await add(ana, pocket.id, 2);
    const again = await add(ana, pocket.id, 3);
    const tooMany = await add(ana, pocket.id, 95);
    const cart = await cartOf(ana);

    // Assess
    expectOk(first);
    expect(first.body).toMatchObject({
      productStockGradeId: pocket.id,
      productTitle: 'Notebook',
      gradeName: 'Pocket',
      billing: 'once',
      quantity: 2,
      unitPrice: { amountMinor: 1_200, currency: 'USD' },
      status: 'ok',
    });
    expectOk(again);
    expect(again.body).toMatchObject({ id: first.body.id, quantity: 5 });
    expectError(tooMany, 400);
    expectMessage(tooMany, /at most 99.*5 of Notebook — Pocket/i);
    expect(cart.items.map((item) => [item.gradeName, item.quantity])).toEqual([['Pocket', 5]]);
  });

  it('keeps one of a subscription grade per cart and answers the line already there', async () => {
    // Prepare
    await emptyCart(ana);

    // Act
    const first = await add(ana, club.id);
    const again = await add(ana, club.id);
    const several = await add(ana, club.id, 2);
    const cart = await cartOf(ana);

    // Assess
    expectOk(first);
    expect(first.body).toMatchObject({ billing: 'subscription', quantity: 1, unitPrice: { amountMinor: 900 } });
    expectOk(again);
    expect(again.body).toEqual(first.body);
    expectError(several, 400);
    expectMessage(several, /one at a time/);
    expect(cart.items).toHaveLength(1);
  });

  it('refuses what cannot be bought, and adds nothing: someone else’s draft is as unknown as a made-up grade', async () => {
    // Prepare
    await emptyCart(ana);

    // Act
    const made_up = await add(ana, 'grd_aaaaaaaaaaaaaaaaaaaa');
    const privateGrade = await add(ana, draftGrade.id);
    const gradeOfPrivateProduct = await add(ana, draftProductGrade.id);
    const unstockedGrade = await add(ana, retiredGrade.id);
    const gradeOfUnstockedProduct = await add(ana, retiredProductGrade.id);
    const shopWithoutPayments = await add(ana, elsewhereGrade.id);
    const notAnId = await add(ana, invalid('grade-1'));
    const cart = await cartOf(ana);

    // Assess
    expectError(made_up, 404);
    expectError(privateGrade, 404);
    expect(privateGrade.body).toEqual(made_up.body);
    expectError(gradeOfPrivateProduct, 404);
    expectError(unstockedGrade, 400);
    expectMessage(unstockedGrade, /Notebook — Retired is no longer sold/);
    expectError(gradeOfUnstockedProduct, 400);
    expectMessage(gradeOfUnstockedProduct, /no longer sold/);
    expectError(shopWithoutPayments, 400);
    expectMessage(shopWithoutPayments, /does not take payments/);
    expectError(notAnId, 400);
    expect(cart.items).toEqual([]);
    expect(cart.invoice).toBeNull();
  });

  it('adds a grade to the cart of its own shop only, unlisted grades by link included', async () => {
    // Prepare
    await emptyCart(bo);

    // Act
    const unlisted = await add(bo, secretGrade.id);
    const mine = await cartOf(bo);
    const otherShop = await cartOf(bo, unconnected.merchant.id);

    // Assess
    expectOk(unlisted);
    expect(mine.items.map((item) => item.gradeName)).toEqual(['Secret']);
    expect(otherShop.items).toEqual([]);
  });

  it('holds at most 20 different items', async () => {
    // Prepare
    const stickers = await addProduct(suite, shop, 'Stickers', { visibility: 'unlisted' });
    const grades = await Promise.all(
      Array.from({ length: 21 }, (_, index) => addGrade(suite, shop, stickers, `Sticker ${index}`, 100)),
    );
    const carol = await suite.api.signIn('carol');
    for (const answer of await Promise.all(grades.slice(0, 20).map((grade) => add(carol, grade.id)))) expectOk(answer);

    // Act
    const twentyFirst = await add(carol, grades[20]?.id ?? '');
    const moreOfOne = await add(carol, grades[0]?.id ?? '');
    const cart = await cartOf(carol);

    // Assess
    expectError(twentyFirst, 400);
    expectMessage(twentyFirst, /at most 20 different items/);
    expectOk(moreOfOne);
    expect(moreOfOne.body.quantity).toBe(2);
    expect(cart.items).toHaveLength(20);
    expect(cart.invoice?.lines).toHaveLength(20);
  });

  it('buys now: the shop’s cart becomes the one item, and carts at other shops stay as they were', async () => {
    // Prepare
    await emptyCart(ana);
    const other = await openShop(suite, 'othershop');
    const otherProduct = await addProduct(suite, other, 'Tea');
    const otherGrade = await addGrade(suite, other, otherProduct, 'Green', 600);
    expectOk(await add(ana, pocket.id, 3));
    expectOk(await add(ana, club.id));
    expectOk(await add(ana, otherGrade.id));

    // Act
    const lone = await suite.api.call(routes.replaceCartWithItem, {
      body: { productStockGradeId: pocket.id, quantity: 1 },
      as: ana,
    });
    const refused = await suite.api.call(routes.replaceCartWithItem, { body: { productStockGradeId: draftGrade.id }, as: ana });
    const here = await cartOf(ana);
    const there = await cartOf(ana, other.merchant.id);

    // Assess
    expectOk(lone);
    expect(lone.body).toMatchObject({ productStockGradeId: pocket.id, quantity: 1 });
    expectError(refused, 404);
    expect(here.items.map((item) => [item.gradeName, item.quantity])).toEqual([['Pocket', 1]]);
    expect(there.items.map((item) => item.gradeName)).toEqual(['Green']);
  });

  it('removes an item of the caller’s own cart only: anyone else’s is not found, and stays', async () => {
    // Prepare
    await Promise.all([emptyCart(ana), emptyCart(bo)]);
    const anasItem = await add(ana, posterA2.id);
    expectOk(anasItem);

    // Act
    const byBo = await suite.api.call(routes.removeCartItem, { params: { cartItemId: anasItem.body.id }, as: bo });
    const afterBo = await cartOf(ana);
    const byAna = await suite.api.call(routes.removeCartItem, { params: { cartItemId: anasItem.body.id }, as: ana });
    const again = await suite.api.call(routes.removeCartItem, { params: { cartItemId: anasItem.body.id }, as: ana });
    const afterAna = await cartOf(ana);

    // Assess
    expectError(byBo, 404);
    expect(afterBo.items.map((item) => item.id)).toEqual([anasItem.body.id]);
    expectOk(byAna);
    expect(byAna.body).toMatchObject({ id: anasItem.body.id, gradeName: 'A2' });
    expectError(again, 404);
    expect(afterAna.items).toEqual([]);
  });
});

describe('the invoice of a cart', () => {
  it('prices the cart now: one-time lines by quantity plus each subscription’s first cycle, the same invoice while nothing changes', async () => {
    // Prepare
    await emptyCart(ana);
    expectOk(await add(ana, pocket.id, 2));
    expectOk(await add(ana, club.id));

    // Act
    const first = await cartOf(ana);
    const again = await cartOf(ana);
    expectOk(await add(ana, pocket.id, 1));
    const changed = await cartOf(ana);
    const bosView = await cartOf(bo);

    // Assess
    expect(first.shop.id).toBe(shop.merchant.id);
    expect(first.invoice).toMatchObject({
      status: 'open',
      merchantAccountId: shop.merchant.id,
      total: { amountMinor: 2 * 1_200 + 900, currency: 'USD' },
    });
    expect(
      first.invoice?.lines.map((line) => [line.description, line.billing, line.quantity, line.unitPrice.amountMinor]),
    ).toEqual([
      ['Notebook — Pocket', 'once', 2, 1_200],
      ['Notebook — Club', 'subscription', 1, 900],
    ]);
    expect(again.invoice?.id).toBe(first.invoice?.id);
    expect(changed.invoice?.id).not.toBe(first.invoice?.id);
    expect(changed.invoice?.total.amountMinor).toBe(3 * 1_200 + 900);
    expect(bosView.items.every((item) => item.gradeName !== 'Pocket')).toBe(true);
  });

  it('flags a price changed since adding with both prices and invoices the new one; leaves out what stopped being sold', async () => {
    // Prepare
    await emptyCart(bo);
    expectOk(await add(bo, deluxe.id));
    expectOk(await add(bo, posterA2.id, 2));
    const before = await cartOf(bo);
    await setPrice(deluxe, 3_900);
    expectOk(await suite.api.call(routes.unstockProduct, { params: { productStockId: poster.id }, as: shop.owner }));

    // Act
    const after = await cartOf(bo);
    expectOk(await suite.api.call(routes.stockProduct, { params: { productStockId: poster.id }, as: shop.owner }));
    await setPrice(deluxe, 3_400);
    const restored = await cartOf(bo);

    // Assess
    const byName = new Map(after.items.map((item) => [item.gradeName, item]));
    expect(byName.get('Deluxe')).toMatchObject({
      status: 'price-changed',
      unitPrice: { amountMinor: 3_900 },
      addedUnitPrice: { amountMinor: 3_400 },
    });
    expect(byName.get('A2')).toMatchObject({ status: 'unavailable', quantity: 2 });
    expect(after.invoice?.lines.map((line) => [line.description, line.unitPrice.amountMinor])).toEqual([
      ['Notebook — Deluxe', 3_900],
    ]);
    expect(after.invoice?.id).not.toBe(before.invoice?.id);
    expect(restored.items.every((item) => item.status === 'ok')).toBe(true);
    expect(restored.invoice?.id).toBe(before.invoice?.id);
  });

  it('has no invoice when nothing in the cart can be bought, and 404 for an unknown shop', async () => {
    // Prepare
    const dan = await suite.api.signIn('dan');
    expectOk(await add(dan, posterA2.id));
    expectOk(
      await suite.api.call(routes.setGradeVisibility, {
        params: { productStockGradeId: posterA2.id, visibility: 'private' },
        as: shop.owner,
      }),
    );

    // Act
    const cart = await cartOf(dan);
    const unknownShop = await suite.api.call(routes.getCartInvoice, {
      query: { merchantAccountId: 'mer_aaaaaaaaaaaaaaaaaaaa' },
      as: dan,
    });
    const signedOut = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id } });
    expectOk(
      await suite.api.call(routes.setGradeVisibility, {
        params: { productStockGradeId: posterA2.id, visibility: 'public' },
        as: shop.owner,
      }),
    );

    // Assess
    expect(cart.items.map((item) => [item.gradeName, item.status])).toEqual([['A2', 'unavailable']]);
    expect(cart.invoice).toBeNull();
    expectError(unknownShop, 404);
    expectError(signedOut, 401);
  });
});

describe('paying at a shop', () => {
  it('gives a card form token of the shop’s own gateway; 409 for a shop that takes no payments, 404 for no shop', async () => {
    // Act
    const client = await suite.api.call(routes.getShopPaymentClient, {
      params: { merchantAccountId: shop.merchant.handle },
      as: ana,
    });
    const notConnected = await suite.api.call(routes.getShopPaymentClient, {
      params: { merchantAccountId: unconnected.merchant.id },
      as: ana,
    });
    const unknown = await suite.api.call(routes.getShopPaymentClient, { params: { merchantAccountId: 'no-such-shop' }, as: ana });

    // Assess
    expectOk(client);
    expect(client.body.environment).toBe('local');
    expect(client.body.clientToken.length).toBeGreaterThan(20);
    expectError(notConnected, 409);
    expectMessage(notConnected, /does not take payments yet/);
    expectError(unknown, 404);
  });

  it('lists no orders for a customer who bought nothing', async () => {
    // Act
    const orders = await suite.api.call(routes.listMyOrders, { as: bo });
    const forged = await suite.api.call(routes.listMyOrders, {
      query: { cursor: Buffer.from(JSON.stringify({ gsi1pk: ana.userId, gsi1sk: 'x', pk: 'a', sk: 'b' })).toString('base64url') },
      as: bo,
    });

    // Assess
    expectOk(orders);
    expect(orders.body).toEqual({ items: [], cursor: null });
    expectError(forged, 400);
  });

  it('keeps every cart in its owner’s partition', async () => {
    // Act
    const { data } = await getDb().entities.cartItem.query.byCustomer({ customerId: ana.userId }).go({ pages: 'all' });

    // Assess
    expect(data.every((item) => item.customerId === ana.userId)).toBe(true);
  });
});
