import { MERCHANT_ID_PATTERN } from '../../../shared/schemas/merchant';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { Db } from '../../lib/db/service';
import { Conflict, NotFound } from '../../lib/errors';
import { LruCache } from '../../lib/lru-cache';

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

/** Said of a closed shop (its owner deleted their account) wherever a customer reaches it. */
export class ShopClosed extends NotFound {
  constructor() {
    super('This shop has closed: nothing is sold here any more.');
  }
}

/** Whether customers may see and buy from the shop: false once it closed with its owner's account. */
export const isOpen = (merchant: Pick<MerchantAccountItem, 'closedAt'>): boolean => merchant.closedAt === undefined;

/**
 * Whose shop is whose, as this warm function has read it. A person's shop id never changes (one
 * shop per person, made once, and a closed account's id is never reused), so a cached id cannot
 * go stale: it spares every merchant call a read that would otherwise come before all the others.
 */
const shopIdOfOwner = new LruCache<string>(1_000);

/** The id of the caller's own shop, read consistently (it may have been made a moment ago); 404 when they have none. */
export async function readMyMerchantId(db: Db, ownerId: string): Promise<string> {
  const cached = shopIdOfOwner.get(ownerId);
  if (cached !== undefined) return cached;
  const { data: owner } = await db.entities.merchantOwner.get({ ownerId }).go({ consistent: true });
  if (!owner) throw new NoMerchantAccount();
  shopIdOfOwner.set(ownerId, owner.merchantAccountId);
  return owner.merchantAccountId;
}

/** The caller's own shop, read consistently; 404 when they have none. */
export async function readMyMerchant(db: Db, ownerId: string): Promise<MerchantAccountItem> {
  return readMerchantAccount(db, await readMyMerchantId(db, ownerId));
}

/** A shop the caller owns, named by the id readMyMerchantId answered. */
export async function readMerchantAccount(db: Db, merchantAccountId: string): Promise<MerchantAccountItem> {
  const { data } = await db.entities.merchantAccount.get({ merchantAccountId }).go({ consistent: true });
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

/** A shop as customers reach it, by its id or its handle: 404 for neither, and 404 saying so for a closed one. */
export async function findOpenShop(db: Db, idOrHandle: string): Promise<MerchantAccountItem> {
  const shop = await findShop(db, idOrHandle);
  if (!isOpen(shop)) throw new ShopClosed();
  return shop;
}

/** A merchant whose Braintree account is connected: what selling, and reading its plans, need. */
export function requireConnected(merchant: MerchantAccountItem): asserts merchant is MerchantAccountItem & {
  gateway: NonNullable<MerchantAccountItem['gateway']>;
} {
  if (!merchant.gateway) throw new Conflict('Connect your Braintree account first: nothing can be sold or billed before.');
}
