/**
 * Benchmark: the Pro plan's checkout on a running `npm start`, against its local payment
 * gateway, as a buyer's browser drives it: the invoice for a price, then paying it with a card
 * nonce (the card vaulted, the subscription started, its first cycle charged), one buyer after
 * another; then 50 concurrent payments of one invoice, which must charge exactly once.
 * Prints one JSON line.
 */
import { createLocalPaymentGateway } from '../../functions/lib/payments/local-gateway';
import { APPLICATION_ID_HEADER, SESSION_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';
import { apiUrl, signIn } from './bench-session';

const RUNS = Number(process.env.BENCH_CHECKOUT_RUNS ?? 200);
const CONCURRENT = 50;
const { PAYMENT_GATEWAY_URL } = process.env;
if (!PAYMENT_GATEWAY_URL) throw new Error('Usage: PAYMENT_GATEWAY_URL=... API_URL=... tsx test/bench/checkout.ts');

const headers = (token: string) => ({
  [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID,
  cookie: `${SESSION_HEADER}=${token}`,
  'content-type': 'application/json',
});

async function invoiceFor(token: string): Promise<string> {
  const answer = await fetch(`${apiUrl}/api/i/ourTransfers/subscription/checkout_invoice?priceId=pro-monthly`, {
    headers: headers(token),
  });
  if (answer.status !== 200) throw new Error(`The invoice answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { invoice: { id: string } }).invoice.id;
}

async function pay(token: string, invoiceId: string): Promise<{ status: number; subscriptionId?: string }> {
  const answer = await fetch(`${apiUrl}/api/i/ourTransfers/checkout/invoice/${invoiceId}/fulfill/subscription`, {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({ paymentMethodNonce: 'fake-valid-visa-nonce' }),
  });
  const body = (await answer.json()) as { subscription?: { id: string } };
  return { status: answer.status, ...(body.subscription ? { subscriptionId: body.subscription.id } : {}) };
}

const percentile = (sorted: readonly number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;

// Buyers are signed in first: the figure is the checkout, not the sign-in.
const buyers = [];
for (let index = 0; index < RUNS; index += 1) buyers.push(await signIn(`checkout-${index}`));
const flows: number[] = [];
for (const buyer of buyers) {
  const started = performance.now();
  const invoiceId = await invoiceFor(buyer.token);
  const paid = await pay(buyer.token, invoiceId);
  if (paid.status !== 200) throw new Error(`A checkout answered ${paid.status}`);
  flows.push(performance.now() - started);
}
flows.sort((a, b) => a - b);

const racer = await signIn('checkout-race');
const invoiceId = await invoiceFor(racer.token);
const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => pay(racer.token, invoiceId)));
const subscriptionIds = new Set(answers.flatMap((answer) => (answer.subscriptionId ? [answer.subscriptionId] : [])));
const [subscriptionId] = subscriptionIds;
// The gateway's own record of the subscription: how many charges it really made.
const gateway = createLocalPaymentGateway(PAYMENT_GATEWAY_URL);
const charges = subscriptionId ? (await gateway.findSubscription(subscriptionId)).transactions.length : 0;

console.log(
  JSON.stringify({
    runs: RUNS,
    p50Ms: Math.round(percentile(flows, 0.5)),
    p99Ms: Math.round(percentile(flows, 0.99)),
    concurrent: CONCURRENT,
    statuses: [...new Set(answers.map((answer) => answer.status))],
    subscriptions: subscriptionIds.size,
    charges,
  }),
);
