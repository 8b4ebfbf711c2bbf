/**
 * Benchmark: the storefront on a running `npm start`, against its local payment gateway.
 *
 * 1. A merchant registers, connects a local gateway account, stocks a product with a one-time
 *    grade and a subscription grade, and makes them public (through the API, as the web app does).
 * 2. 200 customers one after another: add the one-time grade to the cart (timed alone), then
 *    check out (the cart's invoice, then paying it with a card nonce: timed together).
 * 3. The shop's figures are brought to 10,000 orders through the same ledger the checkout writes
 *    (recordStoreCharge), spread over the last 30 days.
 *
 * Prints one JSON line with the figures and what the load phase needs (the shop, product and
 * merchant session), which run-all.ts then loads.
 */
import { orderScopesOf, recordStoreCharge } from '../../functions/penpay/lib/sales-ledger';
import { apiUrl, db, headers, signIn } from './bench-session';

const RUNS = Number(process.env.BENCH_STORE_RUNS ?? 200);
const ORDERS = Number(process.env.BENCH_STORE_ORDERS ?? 10_000);
/** Ledger writes in flight at once while seeding: the seeding's speed is not a figure. */
const SEED_CONCURRENCY = 16;

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${apiUrl}/api/i/penpay${path}`, {
    method,
    headers: { ...headers(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const percentile = (sorted: readonly number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: Math.round(percentile(sorted, 0.5)), p99Ms: Math.round(percentile(sorted, 0.99)) };
};

// 1. The shop.
const merchant = await signIn('store-merchant');
const account = await call<{ id: string; handle: string }>(merchant.token, 'POST', '/merchant/register', {
  shopName: 'Bench Supplies',
  handle: `bench-${Date.now().toString(36)}`,
  currency: 'USD',
  description: 'A shop made by the benchmark.',
});
await call(merchant.token, 'PUT', '/merchant/me/mod/gateway', { environment: 'local' });
const product = await call<{ id: string }>(merchant.token, 'POST', '/merchant/me/mod/product', {
  title: 'Field notebook',
  description: 'Dot grid, 96 pages.',
  visibility: 'public',
});
const once = await call<{ id: string }>(merchant.token, 'POST', `/merchant/me/mod/productStock/${product.id}/grade`, {
  name: 'Single notebook',
  amountMinor: 1_200,
});
const monthly = await call<{ id: string }>(merchant.token, 'POST', `/merchant/me/mod/productStock/${product.id}/grade`, {
  name: 'Monthly refill',
  amountMinor: 900,
  subscription: { braintreePlanId: 'monthly', addOns: [{ addOnId: 'extra-seat', maxQuantity: 5 }] },
});

// 2. Customers buying, signed in first: the figures are the cart and the checkout, not the sign-in.
const customers = [];
for (let index = 0; index < RUNS; index += 1) customers.push(await signIn(`store-customer-${index}`));
const addToCart: number[] = [];
const checkout: number[] = [];
for (const customer of customers) {
  let started = performance.now();
  await call(customer.token, 'POST', '/customer/me/mod/cartItem', { productStockGradeId: once.id, quantity: 2 });
  addToCart.push(performance.now() - started);
  started = performance.now();
  const cart = await call<{ invoice: { id: string } | null }>(
    customer.token,
    'GET',
    `/customer/me/v/cartInvoice?merchantAccountId=${account.id}`,
  );
  if (!cart.invoice) throw new Error('The cart has no invoice');
  const paid = await call<boolean>(customer.token, 'POST', `/customer/me/mod/invoice/${cart.invoice.id}/fulfill/subscription`, {
    paymentMethodNonce: 'fake-valid-visa-nonce',
  });
  if (paid !== true) throw new Error('A checkout did not answer true');
  checkout.push(performance.now() - started);
}

// 3. The shop's ledger to 10,000 orders, spread over 30 days.
const seeded = Math.max(0, ORDERS - RUNS);
let next = 0;
const now = Date.now();
async function seedWorker(): Promise<void> {
  for (;;) {
    const index = next;
    next += 1;
    if (index >= seeded) return;
    const productStockGradeId = index % 3 === 0 ? monthly.id : once.id;
    await recordStoreCharge(db, {
      merchantAccountId: account.id,
      transactionId: `bench-${index}`,
      kind: 'order',
      opensOrderIn: orderScopesOf([{ productId: product.id, priceId: productStockGradeId, billing: 'once' }], 'sale'),
      invoiceId: `bench-invoice-${index}`,
      customer: { id: `bench-customer-${index % 500}`, name: `Customer ${index % 500}`, email: null },
      paidAt: new Date(now - ((index * 2_591_000) % (30 * 86_400_000))).toISOString(),
      currency: 'USD',
      lines: [
        {
          productStockId: product.id,
          productStockGradeId,
          description: 'Field notebook',
          units: 1 + (index % 2),
          amountMinor: 1_200 * (1 + (index % 2)),
        },
      ],
    });
  }
}
const seedStarted = performance.now();
await Promise.all(Array.from({ length: SEED_CONCURRENCY }, seedWorker));

console.log(
  JSON.stringify({
    runs: RUNS,
    addToCart: summary(addToCart),
    checkout: summary(checkout),
    orders: seeded + RUNS,
    seedSeconds: Math.round((performance.now() - seedStarted) / 100) / 10,
    shop: { id: account.id, handle: account.handle },
    productStockId: product.id,
    merchantToken: merchant.token,
  }),
);
