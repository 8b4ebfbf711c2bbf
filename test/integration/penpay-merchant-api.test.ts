import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type * as BraintreeGatewayModule from '../../functions/lib/payments/braintree-gateway';
import { gradeScope, productScope, shopScope } from '../../functions/lib/db/entities/store-figures';
import { getDb } from '../../functions/lib/db/service';
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import * as merchantRoutes from '../../shared/routes/merchant';
import { type BodyOf, routes } from '../../shared/routes';
import type { GradeView, ProductStockView } from '../../shared/schemas/merchant';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { openShop, type Shop } from '../support/penpay';
import { uniqueName } from '../support/unique';

/**
 * Braintree itself cannot be reached from a test: the sandbox and production keys of accounts made
 * here are tried against a stand-in, an account of the local payment gateway made with those keys
 * (which, like Braintree, refuses keys it does not know). Every other use of Braintree's adapter
 * (the local gateway verifies webhooks with it) is the real one. Everything else is as in AWS: the
 * keys are tried, sealed, stored, and opened again by the functions that charge.
 */
const braintree = vi.hoisted(() => ({
  endpoint: '',
  standInMerchantIds: new Set<string>(),
  standIn: undefined as
    ((url: string, keys: { merchantId: string; publicKey: string; privateKey: string }) => unknown) | undefined,
}));
vi.mock('../../functions/lib/payments/braintree-gateway', async (importOriginal) => {
  const actual = await importOriginal<typeof BraintreeGatewayModule>();
  return {
    ...actual,
    createBraintreePaymentGateway: (...args: Parameters<typeof actual.createBraintreePaymentGateway>) => {
      const [credentials] = args;
      if (!braintree.standIn || !braintree.standInMerchantIds.has(credentials.merchantId)) {
        return actual.createBraintreePaymentGateway(...args);
      }
      return braintree.standIn(braintree.endpoint, credentials);
    },
  };
});
// Imported here, not in the mock's factory: the local gateway's module imports Braintree's.
braintree.standIn = createLocalPaymentGateway;

const suite = apiSuite();

// A 1x1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function uploadImage(user: SignedInUser, name = 'picture.png'): Promise<string> {
  const stored = await suite.api.call(routes.uploadImageByBase64, { body: { dataBase64: PNG, name }, as: user });
  expectOk(stored, 201);
  return stored.body.file.id;
}

async function addProduct(shop: Shop, body: { title?: string; visibility?: 'public' | 'unlisted' | 'private' } = {}) {
  const created = await suite.api.call(merchantRoutes.createProductStock, {
    body: { title: body.title ?? 'Field notes', visibility: body.visibility ?? 'public' },
    as: shop.owner,
  });
  expectOk(created);
  return created.body;
}

async function addGrade(shop: Shop, productStockId: string, body: Partial<BodyOf<typeof merchantRoutes.createGrade>> = {}) {
  const created = await suite.api.call(merchantRoutes.createGrade, {
    params: { productStockId },
    body: { name: 'Standard', amountMinor: 2_500, ...body },
    as: shop.owner,
  });
  expectOk(created);
  return created.body;
}

const monthly = (addOns: { addOnId: string; amountMinor?: number; maxQuantity?: number }[] = []) => ({
  braintreePlanId: 'monthly',
  addOns,
});

async function myProduct(shop: Shop, productStockId: string): Promise<ProductStockView> {
  const answer = await suite.api.call(merchantRoutes.getMyProductStock, { params: { productStockId }, as: shop.owner });
  expectOk(answer);
  return answer.body;
}

async function myGrade(shop: Shop, grade: GradeView): Promise<GradeView> {
  const answer = await suite.api.call(merchantRoutes.getMyGrade, {
    params: { productStockId: grade.productStockId, productStockGradeId: grade.id },
    as: shop.owner,
  });
  expectOk(answer);
  return answer.body;
}

async function productFeed(shop: Shop, state: 'stocked' | 'unstocked', cursor?: string) {
  const route = state === 'stocked' ? merchantRoutes.listMyStockedProducts : merchantRoutes.listMyUnstockedProducts;
  const answer = await suite.api.call(route, { query: cursor ? { cursor } : {}, as: shop.owner });
  expectOk(answer);
  return answer.body;
}

/** How many products a feed lists, every page of it. */
async function countThroughFeed(shop: Shop, state: 'stocked' | 'unstocked'): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await productFeed(shop, state, cursor);
    count += page.items.length;
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return count;
}

async function gradeFeed(shop: Shop, productStockId: string, state: 'stocked' | 'unstocked') {
  const route = state === 'stocked' ? merchantRoutes.listMyStockedGrades : merchantRoutes.listMyUnstockedGrades;
  const answer = await suite.api.call(route, { params: { productStockId }, as: shop.owner });
  expectOk(answer);
  return answer.body.items.map((grade) => grade.id);
}

/** A table item exactly as stored, every attribute, for checks on what it must never hold. */
async function rawItem(key: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const db = getDb();
  const { Item } = await db.client.send(new GetCommand({ TableName: db.table, Key: key, ConsistentRead: true }));
  return Item;
}
const rawMerchantItem = (merchantAccountId: string) =>
  rawItem(getDb().entities.merchantAccount.get({ merchantAccountId }).params().Key as Record<string, unknown>);
const rawKeysItem = (merchantAccountId: string) =>
  rawItem(getDb().entities.merchantGatewayKeys.get({ merchantAccountId }).params().Key as Record<string, unknown>);

/** An account at Braintree's stand-in, as a merchant would have made in Braintree's Control Panel. */
async function braintreeAccount(plans?: unknown[]) {
  const keys = {
    merchantId: `sbx${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    publicKey: `pub${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    privateKey: `priv${randomUUID().replaceAll('-', '')}`,
  };
  const answer = await fetch(`${suite.runtime.paymentGatewayEndpoint}/__control/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...keys, webhookUrl: 'http://127.0.0.1:9/webhook', currency: 'USD', ...(plans ? { plans } : {}) }),
  });
  expect(answer.status).toBe(201);
  braintree.standInMerchantIds.add(keys.merchantId);
  return keys;
}

let shop: Shop;
let rival: Shop;
let rivalProduct: ProductStockView;
let rivalOnce: GradeView;
let rivalSubscription: GradeView;

beforeAll(async () => {
  braintree.endpoint = suite.runtime.paymentGatewayEndpoint;
  [shop, rival] = await Promise.all([openShop(suite, 'keeper'), openShop(suite, 'rival', { currency: 'EUR' })]);
  rivalProduct = await addProduct(rival, { title: 'Rival goods' });
  [rivalOnce, rivalSubscription] = await Promise.all([
    addGrade(rival, rivalProduct.id, { name: 'Rival once', amountMinor: 900 }),
    addGrade(rival, rivalProduct.id, { name: 'Rival monthly', amountMinor: 1_900, subscription: monthly() }),
  ]);
});

describe('registering a shop', () => {
  it("makes the caller's shop with its logo, and shows it to them alone", async () => {
    // Prepare
    const [owner, stranger] = await Promise.all([suite.api.signIn('founder'), suite.api.signIn('passer-by')]);
    const logoFileId = await uploadImage(owner, 'logo.png');
    const handle = uniqueName('paper-goods');

    // Act
    const registered = await suite.api.call(merchantRoutes.registerMerchant, {
      body: { shopName: 'Paper Goods', handle: handle.toUpperCase(), currency: 'GBP', description: 'Notebooks.', logoFileId },
      as: owner,
    });
    const mine = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: owner });
    const theirs = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: stranger });

    // Assess
    expectOk(registered);
    expect(registered.body).toMatchObject({
      handle,
      shopName: 'Paper Goods',
      description: 'Notebooks.',
      currency: 'GBP',
      logo: { fileId: logoFileId, url: expect.stringContaining(logoFileId) },
      gateway: null,
    });
    expect(registered.body.id).toMatch(/^mer_[a-z0-9]{20}$/);
    expectOk(mine);
    expect(mine.body.id).toBe(registered.body.id);
    expectError(theirs, 404);
    expect(theirs.body.message).toMatch(/no shop yet/i);
  });

  it('refuses a second shop for the same person and an address already taken, writing nothing', async () => {
    // Prepare
    const newcomer = await suite.api.signIn('newcomer');
    const unusedHandle = uniqueName('second-shop');

    // Act
    const secondShop = await suite.api.call(merchantRoutes.registerMerchant, {
      body: { shopName: 'Second shop', handle: unusedHandle, currency: 'USD' },
      as: shop.owner,
    });
    const takenHandle = await suite.api.call(merchantRoutes.registerMerchant, {
      body: { shopName: 'Copycat', handle: shop.merchant.handle, currency: 'USD' },
      as: newcomer,
    });
    const newcomersShop = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: newcomer });

    // Assess
    expectError(secondShop, 409);
    expect(secondShop.body.message).toMatch(/already have a shop/);
    expectError(takenHandle, 409);
    expect(takenHandle.body.message).toBe(`The shop address "${shop.merchant.handle}" is taken: choose another.`);
    expectError(newcomersShop, 404);
    const { data: unclaimed } = await getDb().entities.merchantHandle.get({ handle: unusedHandle }).go();
    expect(unclaimed).toBeNull();
    const mine = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: shop.owner });
    expectOk(mine);
    expect(mine.body).toMatchObject({ id: shop.merchant.id, handle: shop.merchant.handle });
  });

  it("refuses a logo that is someone else's, not finished uploading, or made up, and makes no shop", async () => {
    // Prepare
    const [owner, other] = await Promise.all([suite.api.signIn('logo-owner'), suite.api.signIn('logo-thief')]);
    const othersImage = await uploadImage(owner);
    const pending = await suite.api.call(routes.uploadImageByFile, {
      body: { name: 'later.png', size: 68, type: 'image/png' },
      as: other,
    });
    expectOk(pending, 201);
    const register = (logoFileId: string) =>
      suite.api.call(merchantRoutes.registerMerchant, {
        body: { shopName: 'Borrowed logo', handle: uniqueName('borrowed'), currency: 'USD', logoFileId },
        as: other,
      });

    // Act
    const someoneElses = await register(othersImage);
    const unfinished = await register(pending.body.file.id);
    const madeUp = await register('f'.repeat(24));
    const shopAfter = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: other });

    // Assess
    expectError(someoneElses, 404);
    expect(someoneElses.body.message).toMatch(/No such image/);
    expectError(madeUp, 404);
    expect(madeUp.body.message).toBe(someoneElses.body.message);
    expectError(unfinished, 400);
    expect(unfinished.body.message).toMatch(/upload the image first/);
    expectError(shopAfter, 404);
  });

  it('refuses an unknown currency, a malformed address and a one-letter name, saying what is wrong', async () => {
    // Prepare
    const owner = await suite.api.signIn('careless');
    const register = (body: { shopName: string; handle: string; currency: string }) =>
      suite.api.call(merchantRoutes.registerMerchant, {
        body: body as { shopName: string; handle: string; currency: 'USD' },
        as: owner,
      });

    // Act
    const unknownCurrency = await register({ shopName: 'Coins', handle: uniqueName('coins'), currency: 'XYZ' });
    const badHandle = await register({ shopName: 'Dashes', handle: '-dashes-', currency: 'USD' });
    const shortName = await register({ shopName: 'x', handle: uniqueName('short'), currency: 'USD' });

    // Assess
    expectError(unknownCurrency, 400);
    expect(unknownCurrency.body.message).toContain('Choose a currency the shop can sell in: USD, EUR');
    expectError(badHandle, 400);
    expect(badHandle.body.message).toContain('The shop address is 3 to 30 lower-case letters');
    expectError(shortName, 400);
    expect(shortName.body.message).toContain('Give the shop name');
    expectError(await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: owner }), 404);
  });

  it('changes the name, description and logo, and keeps the address and currency', async () => {
    // Prepare
    const own = await openShop(suite, 'renamer', { connect: false });
    const logoFileId = await uploadImage(own.owner);

    // Act
    const renamed = await suite.api.call(merchantRoutes.updateMerchantAccount, {
      body: { shopName: 'Renamed shop', description: 'Now with maps.', logoFileId },
      as: own.owner,
    });
    const logoRemoved = await suite.api.call(merchantRoutes.updateMerchantAccount, { body: { logoFileId: null }, as: own.owner });
    const handleChange = await suite.api.call(merchantRoutes.updateMerchantAccount, {
      body: { handle: 'another-address' } as unknown as { shopName: string },
      as: own.owner,
    });

    // Assess
    expectOk(renamed);
    expect(renamed.body).toMatchObject({
      shopName: 'Renamed shop',
      description: 'Now with maps.',
      logo: { fileId: logoFileId },
      handle: own.merchant.handle,
      currency: 'USD',
    });
    expectOk(logoRemoved);
    expect(logoRemoved.body).toMatchObject({ shopName: 'Renamed shop', logo: null });
    expectError(handleChange, 400);
  });
});

describe('connecting a Braintree account', () => {
  it('connects a local test account whose plans the grade editor lists, and never answers its keys', async () => {
    // Prepare
    const own = await openShop(suite, 'connector', { connect: false });
    const plansBefore = await suite.api.call(merchantRoutes.listMyGatewayPlans, { as: own.owner });

    // Act
    const connected = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'local' },
      as: own.owner,
    });
    const plans = await suite.api.call(merchantRoutes.listMyGatewayPlans, { as: own.owner });

    // Assess
    expectError(plansBefore, 409);
    expect(plansBefore.body.message).toMatch(/Connect your Braintree account first/);
    expectOk(connected);
    expect(connected.body.gateway).toMatchObject({
      environment: 'local',
      merchantId: expect.any(String),
      webhookUrl: expect.stringMatching(new RegExp(`/api/e/braintree/merchant/${own.merchant.id}/webhook$`)),
    });
    expect(Object.keys(connected.body.gateway ?? {}).sort()).toEqual(['connectedAt', 'environment', 'merchantId', 'webhookUrl']);
    expectOk(plans);
    expect(plans.body.plans.map((plan) => [plan.id, plan.billingFrequencyMonths, plan.price])).toEqual([
      ['monthly', 1, { amountMinor: 1_000, currency: 'USD' }],
      ['quarterly', 3, { amountMinor: 1_000, currency: 'USD' }],
      ['yearly', 12, { amountMinor: 1_000, currency: 'USD' }],
    ]);
    expect(plans.body.plans[0]?.addOns).toEqual([
      { id: 'extra-seat', name: 'Extra seat', price: { amountMinor: 200, currency: 'USD' } },
      { id: 'priority-support', name: 'Priority support', price: { amountMinor: 500, currency: 'USD' } },
    ]);
    const stored = await rawMerchantItem(own.merchant.id);
    expect(Object.keys((stored?.gateway as object) ?? {}).sort()).toEqual(['connectedAt', 'environment', 'merchantId']);
    expect(JSON.stringify(stored)).not.toMatch(/privateKey|publicKey|sealed/);
    const sealed = (await rawKeysItem(own.merchant.id))?.sealed as Record<string, unknown>;
    expect(Object.keys(sealed).sort()).toEqual(['algorithm', 'ciphertext', 'encryptedDataKey', 'iv', 'keyId', 'tag']);
  });

  it('tries sandbox keys at Braintree first: keys it refuses are a 400 and leave the shop unconnected', async () => {
    // Prepare
    const own = await openShop(suite, 'mistyped', { connect: false });
    const keys = await braintreeAccount();

    // Act
    const refused = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'sandbox', ...keys, privateKey: `${keys.privateKey.slice(0, -4)}0000` },
      as: own.owner,
    });
    const malformed = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'production', ...keys, privateKey: 'short' },
      as: own.owner,
    });
    const after = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: own.owner });

    // Assess
    expectError(refused, 400, 'GATEWAY_CREDENTIALS_REJECTED');
    expect(refused.body.message).toMatch(/did not accept these keys/);
    expect(refused.text).not.toContain(keys.privateKey.slice(0, -4));
    expectError(malformed, 400);
    expect(malformed.body.message).toContain('Not a Braintree private key');
    expectOk(after);
    expect(after.body.gateway).toBeNull();
    expect(await rawKeysItem(own.merchant.id)).toBeUndefined();
  });

  it("seals accepted sandbox keys, never answers or stores them in the clear, and opens them for the shop's plans", async () => {
    // Prepare
    const own = await openShop(suite, 'sandboxer', { connect: false });
    const keys = await braintreeAccount();

    // Act
    const connected = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'sandbox', ...keys },
      as: own.owner,
    });
    const plans = await suite.api.call(merchantRoutes.listMyGatewayPlans, { as: own.owner });
    const read = await suite.api.call(merchantRoutes.getMyMerchantAccount, { as: own.owner });

    // Assess
    expectOk(connected);
    expect(connected.body.gateway).toMatchObject({ environment: 'sandbox', merchantId: keys.merchantId });
    for (const text of [connected.text, read.text]) {
      expect(text).not.toContain(keys.privateKey);
      expect(text).not.toContain(keys.publicKey);
    }
    const storedAccount = JSON.stringify(await rawMerchantItem(own.merchant.id));
    const storedKeys = JSON.stringify(await rawKeysItem(own.merchant.id));
    for (const stored of [storedAccount, storedKeys]) {
      expect(stored).not.toContain(keys.privateKey);
      expect(stored).not.toContain(keys.publicKey);
    }
    expect(storedAccount).toContain(keys.merchantId);
    expectOk(plans);
    expect(plans.body.plans.map((plan) => plan.id)).toEqual(['monthly', 'quarterly', 'yearly']);
  });

  it('keeps subscribers within reach: another account is refused while the shop has subscriptions, new keys of the same one are not', async () => {
    // Prepare
    const own = await openShop(suite, 'rotator', { connect: false });
    const keys = await braintreeAccount();
    const first = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'sandbox', ...keys },
      as: own.owner,
    });
    expectOk(first);
    await getDb()
      .entities.storeFigure.put({ merchantAccountId: own.merchant.id, scope: shopScope, period: 'total', activeSubscriptions: 2 })
      .go();

    // Act
    const otherAccount = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'local' },
      as: own.owner,
    });
    const sameAccount = await suite.api.call(merchantRoutes.connectMerchantGateway, {
      body: { environment: 'sandbox', ...keys },
      as: own.owner,
    });

    // Assess
    expectError(otherAccount, 409);
    expect(otherAccount.body.message).toContain(`2 subscriptions billed by Braintree account ${keys.merchantId}`);
    expectOk(sameAccount);
    expect(sameAccount.body.gateway).toMatchObject({ environment: 'sandbox', merchantId: keys.merchantId });
  });
});

describe('products and grades', () => {
  it('adds a product as a private draft with its images, stocked and first in the stocked feed', async () => {
    // Prepare
    const [cover, detail] = [await uploadImage(shop.owner, 'cover.png'), await uploadImage(shop.owner, 'detail.png')];

    // Act
    const created = await suite.api.call(merchantRoutes.createProductStock, {
      body: {
        title: 'Trail map',
        description: 'Folded, waterproof.',
        imageFileIds: [cover, detail, cover],
        display: { tagline: 'Never lost', featured: true },
      },
      as: shop.owner,
    });

    // Assess
    expectOk(created);
    expect(created.body).toMatchObject({
      merchantAccountId: shop.merchant.id,
      title: 'Trail map',
      description: 'Folded, waterproof.',
      visibility: 'private',
      stocked: true,
      display: { tagline: 'Never lost', accentColor: null, featured: true, position: 0 },
      priceFrom: null,
      gradeCount: 0,
      hasGradeOnSale: false,
    });
    expect(created.body.images.map((image) => image.fileId)).toEqual([cover, detail]);
    expect(await myProduct(shop, created.body.id)).toEqual(
      expect.objectContaining({ id: created.body.id, updatedAt: created.body.updatedAt }),
    );
    expect((await productFeed(shop, 'stocked')).items[0]?.id).toBe(created.body.id);
  });

  it("adds a one-time grade and a subscription grade checked against the shop's plans, and prices the product from them", async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Weather service' });

    // Act
    const once = await addGrade(shop, product.id, { name: 'Single report', amountMinor: 2_500 });
    const subscription = await addGrade(shop, product.id, {
      name: 'Monthly reports',
      amountMinor: 1_500,
      display: { badge: 'Most popular', highlighted: true, position: 1, features: ['Daily', 'Alerts'] },
      subscription: monthly([{ addOnId: 'extra-seat' }, { addOnId: 'priority-support', amountMinor: 700, maxQuantity: 3 }]),
    });

    // Assess
    expect(once).toMatchObject({
      productStockId: product.id,
      merchantAccountId: shop.merchant.id,
      price: { amountMinor: 2_500, currency: 'USD' },
      billing: { kind: 'once' },
      visibility: 'public',
      stocked: true,
      purchasable: true,
    });
    expect(subscription).toMatchObject({
      price: { amountMinor: 1_500, currency: 'USD' },
      display: { badge: 'Most popular', highlighted: true, position: 1, features: ['Daily', 'Alerts'] },
      billing: {
        kind: 'subscription',
        braintreePlanId: 'monthly',
        billingFrequencyMonths: 1,
        addOns: [
          { addOnId: 'extra-seat', name: 'Extra seat', price: { amountMinor: 200, currency: 'USD' }, maxQuantity: 1 },
          { addOnId: 'priority-support', name: 'Priority support', price: { amountMinor: 700, currency: 'USD' }, maxQuantity: 3 },
        ],
      },
    });
    expect(await myProduct(shop, product.id)).toMatchObject({
      gradeCount: 2,
      priceFrom: { amountMinor: 1_500, currency: 'USD' },
      hasGradeOnSale: true,
    });
    expect(await gradeFeed(shop, product.id, 'stocked')).toEqual([once.id, subscription.id]);
  });

  it("refuses a plan, an add-on or a currency the merchant's Braintree account does not offer, adding nothing", async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Plan checks' });
    const mixed = await openShop(suite, 'mixed-plans', { connect: false });
    const keys = await braintreeAccount([
      { id: 'euro-monthly', name: 'Euro monthly', billingFrequencyMonths: 1, price: '9.00', currency: 'EUR' },
      {
        id: 'dollar-monthly',
        name: 'Dollar monthly',
        billingFrequencyMonths: 1,
        price: '9.00',
        currency: 'USD',
        addOns: [{ id: 'welcome-gift', name: 'Welcome gift', amount: '0.00' }],
      },
    ]);
    expectOk(
      await suite.api.call(merchantRoutes.connectMerchantGateway, { body: { environment: 'sandbox', ...keys }, as: mixed.owner }),
    );
    const mixedProduct = await addProduct(mixed);
    const attempt = (
      owner: Shop,
      productStockId: string,
      subscription: { braintreePlanId: string; addOns?: { addOnId: string }[] },
    ) =>
      suite.api.call(merchantRoutes.createGrade, {
        params: { productStockId },
        body: { name: 'Refused', amountMinor: 1_000, subscription: { addOns: [], ...subscription } },
        as: owner.owner,
      });

    // Act
    const unknownPlan = await attempt(shop, product.id, { braintreePlanId: 'weekly' });
    const unknownAddOn = await attempt(shop, product.id, { braintreePlanId: 'monthly', addOns: [{ addOnId: 'gift-wrap' }] });
    const twice = await attempt(shop, product.id, {
      braintreePlanId: 'monthly',
      addOns: [{ addOnId: 'extra-seat' }, { addOnId: 'extra-seat' }],
    });
    const otherCurrency = await attempt(mixed, mixedProduct.id, { braintreePlanId: 'euro-monthly' });
    const freeAddOn = await attempt(mixed, mixedProduct.id, {
      braintreePlanId: 'dollar-monthly',
      addOns: [{ addOnId: 'welcome-gift' }],
    });

    // Assess
    expectError(unknownPlan, 400);
    expect(unknownPlan.body.message).toBe(
      'Your Braintree account has no plan "weekly". Its plans: "monthly", "quarterly", "yearly".',
    );
    expectError(unknownAddOn, 400);
    expect(unknownAddOn.body.message).toBe(
      'Plan "monthly" has no add-on "gift-wrap". Its add-ons: "extra-seat", "priority-support".',
    );
    expectError(twice, 400);
    expect(twice.body.message).toMatch(/"extra-seat" is offered twice/);
    expectError(otherCurrency, 400);
    expect(otherCurrency.body.message).toBe(
      'Plan "euro-monthly" bills in EUR, but your shop sells in USD: choose a plan in USD.',
    );
    expectError(freeAddOn, 400);
    expect(freeAddOn.body.message).toMatch(/add-on "welcome-gift" \(0\.00\) is outside what the shop can charge/);
    expect(await myProduct(shop, product.id)).toMatchObject({ gradeCount: 0 });
    expect(await gradeFeed(shop, product.id, 'stocked')).toEqual([]);
    expect(await gradeFeed(mixed, mixedProduct.id, 'stocked')).toEqual([]);
  });

  it('refuses prices below 0.50, above 100,000.00 or in fractions of a cent, and keeps the price it had', async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Price checks' });
    const grade = await addGrade(shop, product.id, { amountMinor: 1_200 });
    const create = (amountMinor: number) =>
      suite.api.call(merchantRoutes.createGrade, {
        params: { productStockId: product.id },
        body: { name: 'Odd', amountMinor },
        as: shop.owner,
      });

    // Act
    const negative = await create(-100);
    const absurd = await create(10_000_001);
    const fraction = await create(12.5);
    const free = await suite.api.call(merchantRoutes.updateGradeCost, {
      params: { productStockId: product.id, productStockGradeId: grade.id },
      body: { amountMinor: 0 },
      as: shop.owner,
    });

    // Assess
    expectError(negative, 400);
    expect(negative.body.message).toContain('A price must be at least 0.50');
    expectError(absurd, 400);
    expect(absurd.body.message).toContain('A price can be at most 100,000.00');
    expectError(fraction, 400);
    expect(fraction.body.message).toContain('Give the price in cents, as a whole number');
    expectError(free, 400);
    expect(free.body.message).toContain('A price must be at least 0.50');
    expect((await myGrade(shop, grade)).price.amountMinor).toBe(1_200);
    expect(await myProduct(shop, product.id)).toMatchObject({ gradeCount: 1, priceFrom: { amountMinor: 1_200 } });
  });

  it('lets a shop without a Braintree account prepare products and one-time grades, not subscriptions', async () => {
    // Prepare
    const unconnected = await openShop(suite, 'preparer', { connect: false });

    // Act
    const product = await addProduct(unconnected);
    const once = await addGrade(unconnected, product.id);
    const subscription = await suite.api.call(merchantRoutes.createGrade, {
      params: { productStockId: product.id },
      body: { name: 'Monthly', amountMinor: 1_000, subscription: monthly() },
      as: unconnected.owner,
    });

    // Assess
    expect(once).toMatchObject({ billing: { kind: 'once' }, purchasable: false });
    expectError(subscription, 409);
    expect(subscription.body.message).toMatch(/Connect your Braintree account first/);
    // Its grade is on sale, though nothing can be bought until the shop connects Braintree.
    expect(await myProduct(unconnected, product.id)).toMatchObject({ gradeCount: 1, priceFrom: null, hasGradeOnSale: true });
  });

  it("changes a product's display: title, texts, images and its place in the shop", async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Plain' });
    const image = await uploadImage(shop.owner);

    // Act
    const changed = await suite.api.call(merchantRoutes.updateProductDisplay, {
      params: { productStockId: product.id },
      body: {
        title: 'Decorated',
        description: 'Shiny.',
        imageFileIds: [image],
        display: { tagline: 'New!', accentColor: '#1d4ed8', featured: true, position: 3 },
      },
      as: shop.owner,
    });
    const taglineRemoved = await suite.api.call(merchantRoutes.updateProductDisplay, {
      params: { productStockId: product.id },
      body: { display: { tagline: '' } },
      as: shop.owner,
    });

    // Assess
    expectOk(changed);
    expect(changed.body).toMatchObject({
      title: 'Decorated',
      description: 'Shiny.',
      images: [{ fileId: image }],
      display: { tagline: 'New!', accentColor: '#1d4ed8', featured: true, position: 3 },
    });
    expect(changed.body.updatedAt > product.updatedAt).toBe(true);
    expectOk(taglineRemoved);
    expect(taglineRemoved.body.display).toEqual({ tagline: null, accentColor: '#1d4ed8', featured: true, position: 3 });
    expect(await myProduct(shop, product.id)).toEqual(taglineRemoved.body);
  });

  it("changes a grade's display and price, and its product's price follows", async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Repriced' });
    const [cheap, dear] = [
      await addGrade(shop, product.id, { amountMinor: 1_000 }),
      await addGrade(shop, product.id, { amountMinor: 3_000 }),
    ];
    const params = { productStockId: product.id, productStockGradeId: cheap.id };

    // Act
    const displayed = await suite.api.call(merchantRoutes.updateGradeDisplay, {
      params,
      body: {
        name: 'Starter',
        description: 'To begin.',
        display: { badge: 'New', highlighted: true, position: 5, features: ['One'] },
      },
      as: shop.owner,
    });
    const repriced = await suite.api.call(merchantRoutes.updateGradeCost, {
      params,
      body: { amountMinor: 4_000 },
      as: shop.owner,
    });

    // Assess
    expectOk(displayed);
    expect(displayed.body).toMatchObject({
      name: 'Starter',
      description: 'To begin.',
      display: { badge: 'New', highlighted: true, position: 5, features: ['One'] },
    });
    expectOk(repriced);
    expect(repriced.body.price).toEqual({ amountMinor: 4_000, currency: 'USD' });
    expect(await myProduct(shop, product.id)).toMatchObject({ priceFrom: { amountMinor: 3_000 } });
    // Display order: position 0 before position 5.
    expect(await gradeFeed(shop, product.id, 'stocked')).toEqual([dear.id, cheap.id]);
  });

  it('moves a subscription grade between plans and to and from being sold once, checked at the gateway', async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Plans' });
    const grade = await addGrade(shop, product.id, {
      amountMinor: 1_000,
      subscription: monthly([{ addOnId: 'priority-support', amountMinor: 900 }]),
    });
    const once = await addGrade(shop, product.id, { amountMinor: 500 });
    const params = { productStockId: product.id, productStockGradeId: grade.id };
    const movePlan = (braintreePlanId: string, productStockGradeId = grade.id) =>
      suite.api.call(merchantRoutes.updateGradePlan, {
        params: { productStockId: product.id, productStockGradeId },
        body: { braintreePlanId },
        as: shop.owner,
      });

    // Act
    const yearly = await movePlan('yearly');
    const unknown = await movePlan('weekly');
    const onceMoved = await movePlan('yearly', once.id);
    const soldOnce = await suite.api.call(merchantRoutes.updateGradeSubscription, {
      params,
      body: { subscription: null },
      as: shop.owner,
    });
    const quarterly = await suite.api.call(merchantRoutes.updateGradeSubscription, {
      params,
      body: { subscription: { braintreePlanId: 'quarterly', addOns: [{ addOnId: 'extra-seat', maxQuantity: 5 }] } },
      as: shop.owner,
    });

    // Assess
    expectOk(yearly);
    expect(yearly.body.billing).toEqual({
      kind: 'subscription',
      braintreePlanId: 'yearly',
      billingFrequencyMonths: 12,
      addOns: [
        { addOnId: 'priority-support', name: 'Priority support', price: { amountMinor: 900, currency: 'USD' }, maxQuantity: 1 },
      ],
    });
    expectError(unknown, 400);
    expect(unknown.body.message).toContain('no plan "weekly"');
    expectError(onceMoved, 409);
    expect(onceMoved.body.message).toMatch(/sold once/);
    expect((await myGrade(shop, once)).billing).toEqual({ kind: 'once' });
    expectOk(soldOnce);
    expect(soldOnce.body.billing).toEqual({ kind: 'once' });
    expectOk(quarterly);
    expect(quarterly.body.billing).toMatchObject({
      braintreePlanId: 'quarterly',
      billingFrequencyMonths: 3,
      addOns: [{ addOnId: 'extra-seat', price: { amountMinor: 200 }, maxQuantity: 5 }],
    });
    expect(await myGrade(shop, grade)).toEqual(quarterly.body);
  });
});

describe('visibility and stock', () => {
  it('takes the three visibilities only, and setting one again changes nothing', async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Seen by some', visibility: 'public' });
    const grade = await addGrade(shop, product.id, { amountMinor: 800 });
    const setProduct = (visibility: string) =>
      suite.api.call(merchantRoutes.setProductVisibility, {
        params: { productStockId: product.id, visibility: visibility as 'public' },
        as: shop.owner,
      });
    const setGrade = (visibility: string) =>
      suite.api.call(merchantRoutes.setGradeVisibility, {
        params: { productStockGradeId: grade.id, visibility: visibility as 'public' },
        as: shop.owner,
      });

    // Act
    const secret = await setProduct('secret');
    const hidden = await setGrade('hidden');
    const unlisted = await setProduct('unlisted');
    const afterFirst = await myProduct(shop, product.id);
    const unlistedAgain = await setProduct('unlisted');
    const afterSecond = await myProduct(shop, product.id);
    const gradePrivate = await setGrade('private');
    const gradePrivateAgain = await setGrade('private');

    // Assess
    for (const refused of [secret, hidden]) {
      expectError(refused, 400);
      expect(refused.body.message).toContain('Visibility must be one of: public, unlisted, private');
    }
    for (const done of [unlisted, unlistedAgain, gradePrivate, gradePrivateAgain]) {
      expectOk(done);
      expect(done.body).toBe(true);
    }
    expect(afterFirst.visibility).toBe('unlisted');
    expect(afterSecond).toEqual(afterFirst);
    expect(await myGrade(shop, grade)).toMatchObject({ visibility: 'private', purchasable: false });
    // Its only grade is private: nothing to price the product from.
    expect(afterSecond.priceFrom).toEqual({ amountMinor: 800, currency: 'USD' });
    expect(await myProduct(shop, product.id)).toMatchObject({ priceFrom: null, gradeCount: 1, hasGradeOnSale: false });
  });

  it('unstocks and stocks a product, each twice changing nothing more, moving it between the feeds', async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Seasonal' });
    const call = (route: typeof merchantRoutes.unstockProduct | typeof merchantRoutes.stockProduct) =>
      suite.api.call(route, { params: { productStockId: product.id }, as: shop.owner });

    // Act
    const unstocked = [await call(merchantRoutes.unstockProduct), await call(merchantRoutes.unstockProduct)];
    const whileUnstocked = await myProduct(shop, product.id);
    const [stockedFeed, unstockedFeed] = [await productFeed(shop, 'stocked'), await productFeed(shop, 'unstocked')];
    const restocked = [await call(merchantRoutes.stockProduct), await call(merchantRoutes.stockProduct)];
    const [stockedAfter, unstockedAfter] = [await productFeed(shop, 'stocked'), await productFeed(shop, 'unstocked')];

    // Assess
    for (const done of [...unstocked, ...restocked]) {
      expectOk(done);
      expect(done.body).toBe(true);
    }
    expect(whileUnstocked.stocked).toBe(false);
    expect(stockedFeed.items.map((item) => item.id)).not.toContain(product.id);
    expect(unstockedFeed.items.map((item) => item.id)).toContain(product.id);
    expect(stockedAfter.items[0]?.id).toBe(product.id);
    expect(unstockedAfter.items.map((item) => item.id)).not.toContain(product.id);
    expect(await myProduct(shop, product.id)).toMatchObject({ stocked: true });
  });

  it("unstocks and stocks a grade, moving it between its product's feeds and out of its price", async () => {
    // Prepare
    const product = await addProduct(shop, { title: 'Tiers' });
    const [cheap, dear] = [
      await addGrade(shop, product.id, { amountMinor: 700 }),
      await addGrade(shop, product.id, { amountMinor: 1_700 }),
    ];
    const call = (route: typeof merchantRoutes.unstockGrade | typeof merchantRoutes.stockGrade) =>
      suite.api.call(route, { params: { productStockGradeId: cheap.id }, as: shop.owner });

    // Act
    const unstocked = [await call(merchantRoutes.unstockGrade), await call(merchantRoutes.unstockGrade)];
    const whileUnstocked = {
      grade: await myGrade(shop, cheap),
      product: await myProduct(shop, product.id),
      stocked: await gradeFeed(shop, product.id, 'stocked'),
      unstocked: await gradeFeed(shop, product.id, 'unstocked'),
    };
    const restocked = [await call(merchantRoutes.stockGrade), await call(merchantRoutes.stockGrade)];

    // Assess
    for (const done of [...unstocked, ...restocked]) {
      expectOk(done);
      expect(done.body).toBe(true);
    }
    // Without a position, each new grade went after the others.
    expect([cheap.display.position, dear.display.position]).toEqual([0, 1]);
    expect(whileUnstocked.grade).toMatchObject({ stocked: false, purchasable: false });
    expect(whileUnstocked.product.priceFrom).toEqual({ amountMinor: 1_700, currency: 'USD' });
    expect(whileUnstocked.stocked).toEqual([dear.id]);
    expect(whileUnstocked.unstocked).toEqual([cheap.id]);
    expect(await myProduct(shop, product.id)).toMatchObject({ priceFrom: { amountMinor: 700 }, gradeCount: 2 });
    expect(await gradeFeed(shop, product.id, 'stocked')).toEqual([cheap.id, dear.id]);
    expect(await gradeFeed(shop, product.id, 'unstocked')).toEqual([]);
  });

  it("pages a merchant's products newest first, 20 a page, and refuses another merchant's page link", async () => {
    // Prepare
    const busy = await openShop(suite, 'busy-shop', { connect: false });
    const created: string[] = [];
    for (let index = 0; index < 21; index += 1) created.push((await addProduct(busy, { title: `Item ${index}` })).id);

    // Act
    const first = await productFeed(busy, 'stocked');
    const second = await productFeed(busy, 'stocked', first.cursor ?? undefined);
    const borrowedCursor = await suite.api.call(merchantRoutes.listMyStockedProducts, {
      query: { cursor: first.cursor ?? '' },
      as: shop.owner,
    });

    // Assess
    expect(first.items.map((item) => item.id)).toEqual(created.slice(1).reverse());
    expect(first.cursor).toEqual(expect.any(String));
    expect(second.items.map((item) => item.id)).toEqual([created[0]]);
    expect(second.cursor).toBeNull();
    expectError(borrowedCursor, 400);
    expect(borrowedCursor.body.message).toMatch(/page link is not valid/);
  });
});

describe("another merchant's products and grades", () => {
  it('answer 404 to every merchant route, exactly like made-up ids, and stay as they were', async () => {
    // Prepare
    const db = getDb();
    const storedBefore = await Promise.all([
      rawItem(db.entities.productStock.get({ productStockId: rivalProduct.id }).params().Key as Record<string, unknown>),
      rawItem(db.entities.productStockGrade.get({ productStockGradeId: rivalOnce.id }).params().Key as Record<string, unknown>),
      rawItem(
        db.entities.productStockGrade.get({ productStockGradeId: rivalSubscription.id }).params().Key as Record<string, unknown>,
      ),
    ]);
    const product = { productStockId: rivalProduct.id };
    const grade = { productStockId: rivalProduct.id, productStockGradeId: rivalSubscription.id };
    const gradeOnly = { productStockGradeId: rivalOnce.id };
    const as = shop.owner;
    const calls = {
      productDashboard: () => suite.api.call(merchantRoutes.showProductDashboard, { params: product, as }),
      gradeDashboard: () => suite.api.call(merchantRoutes.showGradeDashboard, { params: grade, as }),
      product: () => suite.api.call(merchantRoutes.getMyProductStock, { params: product, as }),
      grade: () => suite.api.call(merchantRoutes.getMyGrade, { params: grade, as }),
      stockedGrades: () => suite.api.call(merchantRoutes.listMyStockedGrades, { params: product, query: {}, as }),
      unstockedGrades: () => suite.api.call(merchantRoutes.listMyUnstockedGrades, { params: product, query: {}, as }),
      createGrade: () =>
        suite.api.call(merchantRoutes.createGrade, { params: product, body: { name: 'Planted', amountMinor: 100 }, as }),
      productDisplay: () =>
        suite.api.call(merchantRoutes.updateProductDisplay, { params: product, body: { title: 'Taken over' }, as }),
      gradeDisplay: () => suite.api.call(merchantRoutes.updateGradeDisplay, { params: grade, body: { name: 'Taken over' }, as }),
      gradeSubscription: () =>
        suite.api.call(merchantRoutes.updateGradeSubscription, { params: grade, body: { subscription: null }, as }),
      gradePlan: () => suite.api.call(merchantRoutes.updateGradePlan, { params: grade, body: { braintreePlanId: 'yearly' }, as }),
      gradeCost: () => suite.api.call(merchantRoutes.updateGradeCost, { params: grade, body: { amountMinor: 100 }, as }),
      productVisibility: () =>
        suite.api.call(merchantRoutes.setProductVisibility, { params: { ...product, visibility: 'private' }, as }),
      gradeVisibility: () =>
        suite.api.call(merchantRoutes.setGradeVisibility, { params: { ...gradeOnly, visibility: 'private' }, as }),
      unstockProduct: () => suite.api.call(merchantRoutes.unstockProduct, { params: product, as }),
      stockProduct: () => suite.api.call(merchantRoutes.stockProduct, { params: product, as }),
      unstockGrade: () => suite.api.call(merchantRoutes.unstockGrade, { params: gradeOnly, as }),
      stockGrade: () => suite.api.call(merchantRoutes.stockGrade, { params: gradeOnly, as }),
    };
    const madeUpProduct = await suite.api.call(merchantRoutes.getMyProductStock, {
      params: { productStockId: 'prd_madeupmadeupmadeup00' },
      as,
    });
    const madeUpGrade = await suite.api.call(merchantRoutes.unstockGrade, {
      params: { productStockGradeId: 'grd_madeupmadeupmadeup00' },
      as,
    });

    // Act
    const answers = Object.fromEntries(
      await Promise.all(Object.entries(calls).map(async ([name, call]) => [name, await call()] as const)),
    );

    // Assess
    expectError(madeUpProduct, 404);
    expectError(madeUpGrade, 404);
    const notFound = [madeUpProduct.body.message, madeUpGrade.body.message];
    for (const [name, answer] of Object.entries(answers)) {
      expectError(answer, 404);
      expect(notFound, name).toContain(answer.body.message);
    }
    const storedAfter = await Promise.all([
      rawItem(db.entities.productStock.get({ productStockId: rivalProduct.id }).params().Key as Record<string, unknown>),
      rawItem(db.entities.productStockGrade.get({ productStockGradeId: rivalOnce.id }).params().Key as Record<string, unknown>),
      rawItem(
        db.entities.productStockGrade.get({ productStockGradeId: rivalSubscription.id }).params().Key as Record<string, unknown>,
      ),
    ]);
    expect(storedAfter).toEqual(storedBefore);
    expect(await gradeFeed(rival, rivalProduct.id, 'stocked')).toHaveLength(2);
  });

  it("answer 404 for the merchant's own grade named under another of their products", async () => {
    // Prepare
    const [first, second] = [await addProduct(shop, { title: 'First' }), await addProduct(shop, { title: 'Second' })];
    const grade = await addGrade(shop, first.id);

    // Act
    const misplaced = await suite.api.call(merchantRoutes.getMyGrade, {
      params: { productStockId: second.id, productStockGradeId: grade.id },
      as: shop.owner,
    });
    const mixed = await suite.api.call(merchantRoutes.updateGradeCost, {
      params: { productStockId: rivalProduct.id, productStockGradeId: grade.id },
      body: { amountMinor: 999 },
      as: shop.owner,
    });

    // Assess
    expectError(misplaced, 404);
    expectError(mixed, 404);
    expect((await myGrade(shop, grade)).price.amountMinor).toBe(2_500);
  });

  it('answer 404 to a person without a shop, on every merchant route', async () => {
    // Prepare
    const nobody = await suite.api.signIn('no-shop');

    // Act
    const answers = await Promise.all([
      suite.api.call(merchantRoutes.showMerchantDashboard, { as: nobody }),
      suite.api.call(merchantRoutes.listMyStockedProducts, { query: {}, as: nobody }),
      suite.api.call(merchantRoutes.createProductStock, { body: { title: 'Orphan' }, as: nobody }),
      suite.api.call(merchantRoutes.connectMerchantGateway, { body: { environment: 'local' }, as: nobody }),
      suite.api.call(merchantRoutes.getMyProductStock, { params: { productStockId: rivalProduct.id }, as: nobody }),
    ]);

    // Assess
    for (const answer of answers) {
      expectError(answer, 404);
      expect(answer.body.message).toBe('You have no shop yet: register one first.');
    }
  });
});

describe('dashboards', () => {
  let product: ProductStockView;
  let grade: GradeView;
  let otherGrade: GradeView;
  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    product = await addProduct(shop, { title: 'Best seller' });
    const retired = await addProduct(shop, { title: 'Retired' });
    expectOk(await suite.api.call(merchantRoutes.unstockProduct, { params: { productStockId: retired.id }, as: shop.owner }));
    [grade, otherGrade] = [
      await addGrade(shop, product.id, { name: 'Basic' }),
      await addGrade(shop, product.id, { name: 'Plus' }),
    ];
    const figures = getDb().entities.storeFigure;
    const sales = getDb().entities.storeSale;
    const merchantAccountId = shop.merchant.id;
    const put = (scope: string, period: string, values: { orders?: number; units?: number; revenueMinor?: number }) =>
      figures.put({ merchantAccountId, scope, period, ...values }).go();
    await Promise.all([
      put(shopScope, `day:${daysAgo(29)}`, { orders: 1, units: 1, revenueMinor: 2_500 }),
      put(shopScope, `day:${daysAgo(30)}`, { orders: 9, units: 9, revenueMinor: 99_000 }),
      put(shopScope, `day:${today}`, { orders: 3, units: 4, revenueMinor: 7_500 }),
      figures.put({ merchantAccountId, scope: shopScope, period: 'total', activeSubscriptions: 5, pastDueSubscriptions: 1 }).go(),
      put(productScope(product.id), `day:${daysAgo(3)}`, { orders: 2, units: 2, revenueMinor: 5_000 }),
      put(productScope(product.id), `day:${today}`, { orders: 1, units: 2, revenueMinor: 5_000 }),
      put(gradeScope(grade.id), `day:${today}`, { orders: 1, units: 2, revenueMinor: 5_000 }),
      figures.put({ merchantAccountId, scope: gradeScope(grade.id), period: 'total', activeSubscriptions: 2 }).go(),
      ...[shopScope, productScope(product.id), gradeScope(grade.id)].map((scope) =>
        sales
          .put({
            merchantAccountId,
            scope,
            transactionId: `txn-${randomUUID().slice(0, 8)}`,
            kind: 'order',
            invoiceId: 'invoice-dashboard-1',
            customerId: 'customer-1',
            customerName: 'Ada Buyer',
            customerEmail: 'ada@example.com',
            description: 'Best seller, Basic × 2',
            units: 2,
            amountMinor: 5_000,
            currency: 'USD',
            paidAt: new Date().toISOString(),
          })
          .go(),
      ),
    ]);
  });

  it("show the shop's 30 days, totals, subscriptions, latest sales and product counts", async () => {
    // Act
    const dashboard = await suite.api.call(merchantRoutes.showMerchantDashboard, { as: shop.owner });

    // Assess
    expectOk(dashboard);
    const { figures } = dashboard.body;
    expect(figures.days).toHaveLength(30);
    expect(figures.days[0]).toEqual({ date: daysAgo(29), orders: 1, units: 1, revenueMinor: 2_500 });
    expect(figures.days[29]).toEqual({ date: today, orders: 3, units: 4, revenueMinor: 7_500 });
    expect(figures.days.slice(1, 29).every((day) => day.orders === 0 && day.revenueMinor === 0)).toBe(true);
    expect(figures.totals).toEqual({
      orders: 4,
      units: 5,
      revenue: { amountMinor: 10_000, currency: 'USD' },
      discounts: { amountMinor: 0, currency: 'USD' },
      refunds: { count: 0, amount: { amountMinor: 0, currency: 'USD' } },
    });
    expect(figures).toMatchObject({ currency: 'USD', activeSubscriptions: 5, pastDueSubscriptions: 1 });
    expect(dashboard.body.recentSales).toEqual([
      expect.objectContaining({
        invoiceId: 'invoice-dashboard-1',
        kind: 'order',
        customer: { name: 'Ada Buyer', email: 'ada@example.com' },
        amount: { amountMinor: 5_000, currency: 'USD' },
      }),
    ]);
    expect(dashboard.body.productCounts.unstocked).toBeGreaterThan(0);
    expect(dashboard.body.productCounts).toEqual({
      stocked: await countThroughFeed(shop, 'stocked'),
      unstocked: await countThroughFeed(shop, 'unstocked'),
    });
    expect(dashboard.body.merchant.id).toBe(shop.merchant.id);
    expect(dashboard.body.seo.title).toContain(shop.merchant.shopName);
  });

  it("show a product's own figures, grades and sales, and a grade's", async () => {
    // Act
    const productDashboard = await suite.api.call(merchantRoutes.showProductDashboard, {
      params: { productStockId: product.id },
      as: shop.owner,
    });
    const gradeDashboard = await suite.api.call(merchantRoutes.showGradeDashboard, {
      params: { productStockId: product.id, productStockGradeId: grade.id },
      as: shop.owner,
    });
    const quietGrade = await suite.api.call(merchantRoutes.showGradeDashboard, {
      params: { productStockId: product.id, productStockGradeId: otherGrade.id },
      as: shop.owner,
    });

    // Assess
    expectOk(productDashboard);
    expect(productDashboard.body.product.id).toBe(product.id);
    expect(productDashboard.body.grades.map((entry) => entry.id).sort()).toEqual([grade.id, otherGrade.id].sort());
    expect(productDashboard.body.figures.totals).toEqual({
      orders: 3,
      units: 4,
      revenue: { amountMinor: 10_000, currency: 'USD' },
      discounts: { amountMinor: 0, currency: 'USD' },
      refunds: { count: 0, amount: { amountMinor: 0, currency: 'USD' } },
    });
    expect(productDashboard.body.figures.days[26]).toEqual({ date: daysAgo(3), orders: 2, units: 2, revenueMinor: 5_000 });
    expect(productDashboard.body.figures.activeSubscriptions).toBe(0);
    expect(productDashboard.body.recentSales).toHaveLength(1);
    expectOk(gradeDashboard);
    expect(gradeDashboard.body.grade.id).toBe(grade.id);
    expect(gradeDashboard.body.figures.totals).toEqual({
      orders: 1,
      units: 2,
      revenue: { amountMinor: 5_000, currency: 'USD' },
      discounts: { amountMinor: 0, currency: 'USD' },
      refunds: { count: 0, amount: { amountMinor: 0, currency: 'USD' } },
    });
    expect(gradeDashboard.body.figures.activeSubscriptions).toBe(2);
    expect(gradeDashboard.body.recentSales).toHaveLength(1);
    expectOk(quietGrade);
    expect(quietGrade.body.figures.totals.orders).toBe(0);
    expect(quietGrade.body.recentSales).toEqual([]);
  });
});
