import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { runAsFunction } from '../../functions/lib/function-environment';
import type { PaymentGateway } from '../../functions/lib/payments/gateway';
import { merchantPaymentGateway } from '../../functions/lib/payments/merchant-gateway';
import { openMerchantKeys, type SealedMerchantKeys } from '../../functions/lib/payments/merchant-keys';
import { MERCHANT_KEYS_KEY_FILE } from '../../infra/local/runtime';
import { capabilitiesOf } from '../../shared/capabilities';
import type { LocalGatewayKeys } from '../../shared/payments/local-gateway';
import { routes } from '../../shared/routes';
import type { GradeView, MerchantAccountView, ProductStockView } from '../../shared/schemas/merchant';
import { expectOk, type SignedInUser } from './api-client';
import type { ApiSuite } from './api-suite';
import { uniqueName } from './unique';

/** A merchant signed in, with their shop registered (and, unless told, its local Braintree account connected). */
export interface Shop {
  owner: SignedInUser;
  merchant: MerchantAccountView;
}

export async function openShop(
  suite: ApiSuite,
  label: string,
  options: {
    connect?: boolean;
    currency?: 'USD' | 'EUR';
    /** Someone already signed in (a browser test's merchant); a new person when not given. */
    owner?: SignedInUser;
  } = {},
): Promise<Shop> {
  const owner = options.owner ?? (await suite.api.signIn(label));
  const handle = uniqueName(label)
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  const registered = await suite.api.call(routes.registerMerchant, {
    body: { shopName: `${label} shop`, handle, currency: options.currency ?? 'USD', description: `Things from ${label}` },
    as: owner,
  });
  expectOk(registered);
  if (options.connect === false) return { owner, merchant: registered.body };
  const connected = await suite.api.call(routes.connectMerchantGateway, { body: { environment: 'local' }, as: owner });
  expectOk(connected);
  return { owner, merchant: connected.body };
}

export async function addProduct(
  suite: ApiSuite,
  shop: Shop,
  title: string,
  options: { visibility?: 'public' | 'unlisted' | 'private'; featured?: boolean; position?: number } = {},
): Promise<ProductStockView> {
  const created = await suite.api.call(routes.createProductStock, {
    body: {
      title,
      visibility: options.visibility ?? 'public',
      display: {
        ...(options.featured === undefined ? {} : { featured: options.featured }),
        ...(options.position === undefined ? {} : { position: options.position }),
      },
    },
    as: shop.owner,
  });
  expectOk(created);
  return created.body;
}

/** A grade sold once, or (with `plan`) by subscription on one of the local demo plans. */
export async function addGrade(
  suite: ApiSuite,
  shop: Shop,
  product: { id: string },
  name: string,
  amountMinor: number,
  options: { plan?: 'monthly' | 'quarterly' | 'yearly'; visibility?: 'public' | 'unlisted' | 'private'; position?: number } = {},
): Promise<GradeView> {
  const created = await suite.api.call(routes.createGrade, {
    params: { productStockId: product.id },
    body: {
      name,
      amountMinor,
      subscription: options.plan ? { braintreePlanId: options.plan, addOns: [] } : null,
      visibility: options.visibility ?? 'public',
      display: options.position === undefined ? {} : { position: options.position },
    },
    as: shop.owner,
  });
  expectOk(created);
  return created.body;
}

/**
 * Runs `work` as a function with the merchantKeys 'open' capability and the runtime's local key
 * would: how the shop's sealed keys are opened.
 */
async function asKeyOpener<T>(
  suite: ApiSuite,
  merchantAccountId: string,
  work: (sealed: SealedMerchantKeys) => Promise<T>,
): Promise<T> {
  const { data } = await getDb().entities.merchantGatewayKeys.get({ merchantAccountId }).go({ consistent: true });
  if (!data) throw new Error(`Merchant ${merchantAccountId} has no gateway keys`);
  const sealed = data.sealed;
  const scope = {
    name: 'penpay-test',
    capabilities: capabilitiesOf({ merchantKeys: 'open' }, { table: 'read' }),
    env: {
      ...process.env,
      MERCHANT_KEYS: 'local',
      MERCHANT_KEYS_MODE: 'open',
      MERCHANT_KEYS_FILE: join(dirname(suite.runtime.mailDir), MERCHANT_KEYS_KEY_FILE),
      MERCHANT_GATEWAY_URL: suite.runtime.paymentGatewayEndpoint,
    },
  };
  return runAsFunction(scope, () => work(sealed));
}

/** The shop's own gateway as its functions open it, to look at what was charged there (sales by order id, subscriptions). */
export async function shopGatewayOf(suite: ApiSuite, merchantAccountId: string): Promise<PaymentGateway> {
  return asKeyOpener(suite, merchantAccountId, async (sealed) => merchantPaymentGateway(merchantAccountId, sealed));
}

/** The shop's own keys at the local gateway, as its merchant holds them: to sign its webhooks. */
export async function shopKeysOf(suite: ApiSuite, merchantAccountId: string): Promise<LocalGatewayKeys> {
  return asKeyOpener(suite, merchantAccountId, (sealed) => openMerchantKeys(merchantAccountId, sealed));
}

/** Expects an error answer's message to say something, for failure paths a person reads. */
export function expectMessage(answer: { body: unknown }, pattern: RegExp): void {
  expect((answer.body as { message?: string }).message).toMatch(pattern);
}
