import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatCents, parseCents } from '../../../functions/lib/payments/amounts';
import { localDemoPlans, type LocalPlanAddOn } from '../../../shared/payments/local-gateway';
import { ID_PATTERN } from './billing';
import { readJson, sendJson } from './http';
import { badRequest, GatewayHttpError, notFound } from './refusals';
import { emptyMerchant, type LocalGatewayPlan } from './state';
import type { GatewayStore } from './store';
import type { BillingWorker } from './worker';

/** The clock moves at most ten years at a time: enough for any billing test, and no overflow. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;

const NAME_MAX_LENGTH = 100;

function checkName(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > NAME_MAX_LENGTH) {
    throw badRequest(`${what}: name must be text of 1 to ${NAME_MAX_LENGTH} characters.`);
  }
  return value;
}

function checkPlanAddOns(value: unknown, planId: string): LocalPlanAddOn[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest(`Plan ${planId}: addOns must be a list.`);
  const addOns: LocalPlanAddOn[] = [];
  for (const item of value as unknown[]) {
    const { id, name, amount } = (item ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || id.length > 64) {
      throw badRequest(`Plan ${planId}: an add-on needs an id of letters, digits, "-" and "_".`);
    }
    if (addOns.some((addOn) => addOn.id === id)) throw badRequest(`Plan ${planId}: add-on ${id} is listed twice.`);
    const cents = typeof amount === 'string' ? parseCents(amount) : undefined;
    if (cents === undefined) throw badRequest(`Plan ${planId}: add-on ${id}'s amount must be a decimal amount such as "2.00".`);
    addOns.push({ id, name: checkName(name, `Plan ${planId}, add-on ${id}`) ?? id, amount: formatCents(cents) });
  }
  return addOns;
}

function checkPlan(value: unknown): LocalGatewayPlan {
  const plan = (value ?? {}) as Partial<Record<keyof LocalGatewayPlan, unknown>>;
  const { id, name, billingFrequencyMonths, price, currency, numberOfBillingCycles, addOns } = plan;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw badRequest('A plan needs an id of letters, digits, "-" and "_".');
  if (
    typeof billingFrequencyMonths !== 'number' ||
    !Number.isInteger(billingFrequencyMonths) ||
    billingFrequencyMonths < 1 ||
    billingFrequencyMonths > 120
  ) {
    throw badRequest(`Plan ${id}: billingFrequencyMonths must be a whole number of months from 1 to 120.`);
  }
  if (typeof price !== 'string' || parseCents(price) === undefined)
    throw badRequest(`Plan ${id}: price must be a decimal amount such as "9.00".`);
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    throw badRequest(`Plan ${id}: currency must be an ISO 4217 code such as "USD".`);
  if (
    numberOfBillingCycles !== undefined &&
    (typeof numberOfBillingCycles !== 'number' || !Number.isInteger(numberOfBillingCycles) || numberOfBillingCycles < 1)
  ) {
    throw badRequest(`Plan ${id}: numberOfBillingCycles must be a whole number of cycles, 1 or more.`);
  }
  return {
    id,
    name: checkName(name, `Plan ${id}`) ?? id,
    billingFrequencyMonths,
    price,
    currency,
    ...(numberOfBillingCycles !== undefined ? { numberOfBillingCycles } : {}),
    addOns: checkPlanAddOns(addOns, id),
  };
}

export function checkPlans(value: unknown): LocalGatewayPlan[] {
  if (!Array.isArray(value)) throw badRequest('plans must be a list.');
  const checked = (value as unknown[]).map(checkPlan);
  const ids = new Set(checked.map((plan) => plan.id));
  if (ids.size !== checked.length) throw badRequest('Each plan needs an id of its own.');
  return checked;
}

export function checkWebhookUrl(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw badRequest('webhookUrl must be an http(s) URL.');
  }
  return value;
}

async function createMerchant(store: GatewayStore, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const merchantId = body.merchantId ?? `merchant_${randomBytes(4).toString('hex')}`;
  if (typeof merchantId !== 'string' || !ID_PATTERN.test(merchantId) || merchantId.length > 64) {
    throw badRequest('merchantId must be letters, digits, "-" and "_" (64 at most).');
  }
  if (store.merchant(merchantId)) throw new GatewayHttpError(409, { message: `Merchant ${merchantId} exists already.` });
  const key = (value: unknown, name: string, fallback: string) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(value))
      throw badRequest(`${name} must be 8 to 64 letters, digits, "-" or "_".`);
    return value;
  };
  const publicKey = key(body.publicKey, 'publicKey', randomBytes(8).toString('hex'));
  const privateKey = key(body.privateKey, 'privateKey', randomBytes(16).toString('hex'));
  if (store.merchantWithPublicKey(publicKey)) {
    throw new GatewayHttpError(409, { message: 'Another merchant has this public key.' });
  }
  const namedPlans = body.plans === undefined ? undefined : checkPlans(body.plans);
  const currency = body.currency ?? namedPlans?.[0]?.currency ?? 'USD';
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    throw badRequest('currency must be an ISO 4217 code such as "USD".');
  // Without plans, the demo plans (monthly, quarterly, yearly, with two add-ons) in its currency.
  const merchantPlans = namedPlans ?? localDemoPlans(currency).map(checkPlan);
  const merchant = emptyMerchant({
    id: merchantId,
    publicKey,
    privateKey,
    webhookUrl: checkWebhookUrl(body.webhookUrl),
    currency,
  });
  merchant.plans = new Map(merchantPlans.map((plan) => [plan.id, plan]));
  store.add(merchant);
  await store.save();
  return { merchantId, publicKey, privateKey, webhookUrl: merchant.webhookUrl, currency, plans: merchantPlans };
}

const clockAnswer = (store: GatewayStore) => ({
  now: store.clock.now().toISOString(),
  today: store.clock.today(),
  offsetSeconds: Math.floor(store.state.clockOffsetMs / 1_000),
});

/** How far a clock request moves the clock, in seconds. */
function advanceOf(body: Record<string, unknown>): number {
  const { advanceDays, advanceSeconds } = body;
  const whole = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
  if (!whole(advanceDays) || !whole(advanceSeconds) || (advanceDays === undefined && advanceSeconds === undefined)) {
    throw badRequest(
      'Send { "advanceDays": n } or { "advanceSeconds": n }: whole numbers, 0 or more (the clock only moves forward).',
    );
  }
  const seconds = ((advanceDays as number | undefined) ?? 0) * 86_400 + ((advanceSeconds as number | undefined) ?? 0);
  if (seconds > MAX_ADVANCE_SECONDS) throw badRequest('The clock moves ten years at most at a time.');
  return seconds;
}

async function setDeclining(store: GatewayStore, token: string, body: Record<string, unknown>) {
  if (typeof body.declining !== 'boolean') throw badRequest('Send { "declining": true } or { "declining": false }.');
  const found = store.paymentMethod(token);
  if (!found) throw notFound(`Payment method ${token}`);
  found.method.declining = body.declining;
  await store.save();
  return { token, merchantId: found.merchant.id, declining: found.method.declining };
}

/** A Control Panel discount the merchant has (the default) or lacks: subscriptions inheriting from a missing one are refused (92013). */
async function setDiscount(store: GatewayStore, merchantId: string, discountId: string, body: Record<string, unknown>) {
  if (typeof body.present !== 'boolean') throw badRequest('Send { "present": true } or { "present": false }.');
  const merchant = store.merchant(merchantId);
  if (!merchant) throw notFound(`Merchant ${merchantId}`);
  const missing = new Set(merchant.missingDiscountIds ?? []);
  if (body.present) missing.delete(discountId);
  else missing.add(discountId);
  merchant.missingDiscountIds = [...missing];
  await store.save();
  return { merchantId, discountId, present: body.present };
}

/** /__control/...: more merchants, the gateway's clock, its webhooks settled or held, a card that starts declining, a Control Panel discount deleted. No authentication: loopback only. */
export async function control(
  store: GatewayStore,
  billing: BillingWorker,
  request: IncomingMessage,
  response: ServerResponse,
  rest: string[],
): Promise<void> {
  const method = request.method ?? 'GET';
  const route = `${method} ${rest
    .map((segment, index) =>
      rest[0] === 'payment-methods' && index === 1
        ? ':token'
        : rest[0] === 'merchants' && rest[2] === 'discounts' && (index === 1 || index === 3)
          ? ':id'
          : segment,
    )
    .join('/')}`;
  switch (route) {
    case 'POST merchants':
      return sendJson(response, 201, await createMerchant(store, await readJson(request)));
    case 'GET clock':
      return sendJson(response, 200, clockAnswer(store));
    case 'POST clock': {
      const happened = await billing.advance(advanceOf(await readJson(request)) * 1_000);
      return sendJson(response, 200, { ...clockAnswer(store), ...happened });
    }
    case 'POST webhooks/settle':
      await billing.settle();
      return sendJson(response, 200, { settled: true });
    case 'POST webhooks/hold':
      billing.holdWebhooks();
      return sendJson(response, 200, { held: true });
    case 'POST webhooks/release':
      billing.releaseWebhooks();
      return sendJson(response, 200, { held: false });
    case 'POST payment-methods/:token/decline':
      return sendJson(response, 200, await setDeclining(store, rest[1] ?? '', await readJson(request)));
    case 'POST merchants/:id/discounts/:id':
      return sendJson(response, 200, await setDiscount(store, rest[1] ?? '', rest[3] ?? '', await readJson(request)));
    default:
      throw notFound('This control route');
  }
}
