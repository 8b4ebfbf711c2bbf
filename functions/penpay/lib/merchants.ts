import { MERCHANT_ID_PATTERN } from '../../../shared/schemas/penpay';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { Db } from '../../lib/db/service';
import { Conflict, NotFound } from '../../lib/errors';

export class NoMerchantAccount extends NotFound {
  constructor() {
    super('You have no shop yet: register one first.');
  }
}

export class ShopNotFound extends NotFound {
  constructor() {
    super('No such shop.');
  }
}

/** The caller's own merchant account, read consistently (it may have been made a moment ago); 404 when they have none. */
export async function readMyMerchant(db: Db, ownerId: string): Promise<MerchantAccountItem> {
  const { data: owner } = await db.entities.merchantOwner.get({ ownerId }).go({ consistent: true });
  if (!owner) throw new NoMerchantAccount();
  const { data } = await db.entities.merchantAccount.get({ merchantAccountId: owner.merchantAccountId }).go({ consistent: true });
  if (!data) throw new NoMerchantAccount();
  return data;
}

export async function readMerchantById(db: Db, merchantAccountId: string): Promise<MerchantAccountItem | null> {
  const { data } = await db.entities.merchantAccount.get({ merchantAccountId }).go();
  return data ?? null;
}

/** A shop named by its id (mer_…) or its handle; 404 for neither. */
export async function findShop(db: Db, idOrHandle: string): Promise<MerchantAccountItem> {
  let merchantAccountId = idOrHandle;
  if (!MERCHANT_ID_PATTERN.test(idOrHandle)) {
    const { data: handle } = await db.entities.merchantHandle.get({ handle: idOrHandle }).go();
    if (!handle) throw new ShopNotFound();
    merchantAccountId = handle.merchantAccountId;
  }
  const shop = await readMerchantById(db, merchantAccountId);
  if (!shop) throw new ShopNotFound();
  return shop;
}

/** A merchant whose Braintree account is connected: what selling, and reading its plans, need. */
export function requireConnected(merchant: MerchantAccountItem): asserts merchant is MerchantAccountItem & {
  gateway: NonNullable<MerchantAccountItem['gateway']>;
} {
  if (!merchant.gateway) throw new Conflict('Connect your Braintree account first: nothing can be sold or billed before.');
}
