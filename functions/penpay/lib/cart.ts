/**
 * A customer's cart at one shop, and the invoice for it. A cart is the customer's partition under
 * the shop's prefix: one Query. Prices are never taken from the cart: every line is priced from
 * its grade as it is now, and the price it had when it was added is kept only to flag a change.
 *
 * A cart line's id is derived from the customer and the grade, so the same grade is one line
 * however many tabs add it at once: the first add creates it (a conditional create), every other
 * one finds it and adds to its quantity.
 */
import { createHash } from 'node:crypto';
import {
  MAX_CART_LINES,
  MAX_QUANTITY,
  type CartItemView,
  type ShopView,
  type StoreInvoiceView,
} from '../../../shared/schemas/store';
import type { CartItemItem } from '../../lib/db/entities/cart-item';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import { retryContendedWrite } from '../../lib/contended-writes';
import { getBatch } from '../../lib/db/batches';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { BadRequest, Conflict, NotFound } from '../../lib/errors';
import { type InvoiceLine, openInvoiceFor } from '../../lib/payments/invoices';
import { GradeNotFound, isPurchasable, readGrade, readProduct, visibleTo } from './catalog';
import { priceWithCode, savingOf } from './discounts';
import { isOpen, readMerchantById, ShopClosed, ShopNotFound } from './merchants';
import { toShopView } from './views';

type Billing = 'once' | 'subscription';

/** Sold once, or by subscription (one cycle charged at checkout). */
export const billingOf = (grade: Pick<ProductStockGradeItem, 'plan'>): Billing => (grade.plan ? 'subscription' : 'once');

/** How a line reads on an invoice, a receipt and a merchant's sales. */
export const lineDescription = (productTitle: string, gradeName: string) => `${productTitle} — ${gradeName}`;

export class CartItemNotFound extends NotFound {
  constructor() {
    super('That item is not in your cart.');
  }
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The cart line of a grade for a customer: `cit_` and 20 characters from a hash of the two, so
 * concurrent adds of one grade meet on one item. Not a secret: a cart is reached only through
 * its owner's partition.
 */
export function cartItemIdFor(customerId: string, productStockGradeId: string): string {
  const digest = createHash('sha256').update(`${customerId}\n${productStockGradeId}`).digest();
  let body = '';
  for (const byte of digest.subarray(0, 20)) body += ID_ALPHABET[byte % ID_ALPHABET.length];
  return `cit_${body}`;
}

/** The shop's cart of a customer, oldest line first. */
export async function readCart(db: Db, customerId: string, merchantAccountId: string): Promise<CartItemItem[]> {
  const { data } = await db.entities.cartItem.query
    .byCustomer({ customerId, merchantAccountId })
    .go({ pages: 'all', consistent: true });
  return data.sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.cartItemId.localeCompare(b.cartItemId));
}

/** Grades and products by id, each set in one BatchGetItem (retried), side by side. */
export async function readCatalog(
  db: Db,
  gradeIds: readonly string[],
  productIds: readonly string[],
  consistent = false,
): Promise<{ grades: Map<string, ProductStockGradeItem>; products: Map<string, ProductStockItem> }> {
  const [grades, products] = await Promise.all([
    getBatch({
      keys: [...new Set(gradeIds)].map((productStockGradeId) => ({ productStockGradeId })),
      send: async (keys) => {
        const { data, unprocessed } = await db.entities.productStockGrade.get(keys).go({ consistent });
        return { data, unprocessed: unprocessed.map((key) => ({ productStockGradeId: key.productStockGradeId })) };
      },
      what: 'grades',
    }),
    getBatch({
      keys: [...new Set(productIds)].map((productStockId) => ({ productStockId })),
      send: async (keys) => {
        const { data, unprocessed } = await db.entities.productStock.get(keys).go({ consistent });
        return { data, unprocessed: unprocessed.map((key) => ({ productStockId: key.productStockId })) };
      },
      what: 'products',
    }),
  ]);
  return {
    grades: new Map(grades.map((grade) => [grade.productStockGradeId, grade])),
    products: new Map(products.map((product) => [product.productStockId, product])),
  };
}

/** A cart line priced from its grade as it is now. */
export interface PricedCartItem {
  item: CartItemItem;
  grade: ProductStockGradeItem | null;
  product: ProductStockItem | null;
  view: CartItemView;
}

export function priceCartItem(
  merchant: MerchantAccountItem | null,
  item: CartItemItem,
  grade: ProductStockGradeItem | null,
  product: ProductStockItem | null,
): PricedCartItem {
  const sellable =
    grade !== null && product !== null && grade.productStockId === item.productStockId && isPurchasable(merchant, product, grade);
  const status: CartItemView['status'] = !sellable
    ? 'unavailable'
    : grade.priceMinor !== item.addedUnitPriceMinor
      ? 'price-changed'
      : 'ok';
  return {
    item,
    grade,
    product,
    view: {
      id: item.cartItemId,
      merchantAccountId: item.merchantAccountId,
      productStockId: item.productStockId,
      productStockGradeId: item.productStockGradeId,
      productTitle: product?.title ?? 'A product no longer sold',
      gradeName: grade?.name ?? 'No longer sold',
      billing: grade ? billingOf(grade) : 'once',
      // A subscription is one per cart whatever the line says (its grade may have become one since).
      quantity: grade?.plan ? 1 : item.quantity,
      unitPrice: { amountMinor: grade?.priceMinor ?? item.addedUnitPriceMinor, currency: grade?.currency ?? item.currency },
      addedUnitPrice: { amountMinor: item.addedUnitPriceMinor, currency: item.currency },
      status,
      addedAt: item.addedAt,
    },
  };
}

export async function priceCart(
  db: Db,
  merchant: MerchantAccountItem | null,
  items: readonly CartItemItem[],
  consistent = false,
): Promise<PricedCartItem[]> {
  if (items.length === 0) return [];
  const { grades, products } = await readCatalog(
    db,
    items.map((item) => item.productStockGradeId),
    items.map((item) => item.productStockId),
    consistent,
  );
  return items.map((item) =>
    priceCartItem(merchant, item, grades.get(item.productStockGradeId) ?? null, products.get(item.productStockId) ?? null),
  );
}

// ---------------------------------------------------------------------------------------------
// Adding and removing

/** A grade the caller may put in a cart: it exists, they may see it, and it can be bought now. */
interface SellableGrade {
  grade: ProductStockGradeItem;
  product: ProductStockItem;
  merchant: MerchantAccountItem;
}

async function sellableGrade(db: Db, customerId: string, productStockGradeId: string): Promise<SellableGrade> {
  const grade = await readGrade(db, productStockGradeId, true);
  if (!grade) throw new GradeNotFound();
  const [product, merchant] = await Promise.all([
    readProduct(db, grade.productStockId, true),
    readMerchantById(db, grade.merchantAccountId),
  ]);
  const viewer = merchant && merchant.ownerId === customerId ? merchant.merchantAccountId : null;
  // Someone else's draft is as absent as a made-up id.
  if (!product || !merchant || !visibleTo(grade, viewer) || !visibleTo(product, viewer)) throw new GradeNotFound();
  if (!isOpen(merchant)) throw new ShopClosed();
  if (!isPurchasable(merchant, product, grade)) {
    const what = lineDescription(product.title, grade.name);
    if (!merchant.gateway) throw new BadRequest(`${merchant.shopName} does not take payments yet: nothing can be bought there.`);
    if (!product.stocked || !grade.stocked) throw new BadRequest(`${what} is no longer sold.`);
    throw new BadRequest(`${what} is not for sale: it is private.`);
  }
  return { grade, product, merchant };
}

/**
 * A new cart line of a grade: the quantity given, and the grade's price now as the price it was
 * added at (to flag a change before paying). Adding and "buy now" both write this.
 */
export function newCartLine(
  customerId: string,
  grade: Pick<ProductStockGradeItem, 'productStockGradeId' | 'merchantAccountId' | 'priceMinor' | 'currency'>,
  productStockId: string,
  quantity: number,
  now: Date,
): CartItemItem {
  return {
    customerId,
    merchantAccountId: grade.merchantAccountId,
    cartItemId: cartItemIdFor(customerId, grade.productStockGradeId),
    productStockId,
    productStockGradeId: grade.productStockGradeId,
    quantity,
    addedUnitPriceMinor: grade.priceMinor,
    currency: grade.currency,
    addedAt: now.toISOString(),
  };
}

function checkQuantity(grade: ProductStockGradeItem, quantity: number): void {
  if (grade.plan && quantity !== 1) throw new BadRequest('A subscription is bought one at a time: send quantity 1.');
}

const tooMany = (what: string, had: number) =>
  new BadRequest(`At most ${MAX_QUANTITY} of one item fit in a cart: you have ${had} of ${what} already.`);
const cartFull = () => new BadRequest(`A cart holds at most ${MAX_CART_LINES} different items: check out or remove some first.`);

/**
 * Puts a grade in the caller's cart: a new line, or more of a one-time grade already there (a
 * subscription grade is one per cart: adding it again answers its line). Nothing is written on
 * a refusal.
 */
export async function addToCart(
  db: Db,
  customerId: string,
  request: { productStockGradeId: string; quantity: number },
  now: Date,
): Promise<CartItemView> {
  const { grade, product, merchant } = await sellableGrade(db, customerId, request.productStockGradeId);
  checkQuantity(grade, request.quantity);
  const line = newCartLine(customerId, grade, product.productStockId, request.quantity, now);
  const key = { customerId, merchantAccountId: line.merchantAccountId, cartItemId: line.cartItemId };
  const what = lineDescription(product.title, grade.name);
  // Only the customer's own adds of this grade (other tabs) race for its line: given up, a 409
  // saying so, not TooBusy ("so many people").
  const giveUp = (cause: unknown) =>
    new Conflict(`${what} is being added to your cart in another tab right now: look at your cart again.`, { cause });
  // Each write is conditioned on what was read (the quantity, or no line yet): one that fails
  // its condition lost a race with another add, and retryContendedWrite reads again.
  return retryContendedWrite({ what: 'adding to this cart', giveUp }, async () => {
    const { data: existing } = await db.entities.cartItem.get(key).go({ consistent: true });
    if (existing) {
      if (grade.plan) return priceCartItem(merchant, existing, grade, product).view;
      if (existing.quantity + request.quantity > MAX_QUANTITY) throw tooMany(what, existing.quantity);
      const { data } = await db.entities.cartItem
        .patch(key)
        .add({ quantity: request.quantity })
        // The customer has just seen the price they add at: that is the one to compare with at checkout.
        .set({ addedUnitPriceMinor: grade.priceMinor, currency: grade.currency })
        .where((attributes, { eq }) => eq(attributes.quantity, existing.quantity))
        .go({ response: 'all_new' });
      return priceCartItem(merchant, data as CartItemItem, grade, product).view;
    }
    const lines = await readCart(db, customerId, merchant.merchantAccountId);
    if (lines.length >= MAX_CART_LINES) throw cartFull();
    const { data } = await db.entities.cartItem.create(line).go();
    return priceCartItem(merchant, data, grade, product).view;
  });
}

/**
 * "Buy now": the shop's cart becomes this one line (the quantity given, not added), in one
 * transaction, so the cart is never seen half emptied. Refusals leave the cart as it was.
 */
export async function replaceCartWith(
  db: Db,
  customerId: string,
  request: { productStockGradeId: string; quantity: number },
  now: Date,
): Promise<CartItemView> {
  const { grade, product, merchant } = await sellableGrade(db, customerId, request.productStockGradeId);
  checkQuantity(grade, request.quantity);
  const item = newCartLine(customerId, grade, product.productStockId, request.quantity, now);
  const { merchantAccountId, cartItemId } = item;
  const others = (await readCart(db, customerId, merchantAccountId)).filter((other) => other.cartItemId !== cartItemId);
  const result = await db.transaction
    .write(({ cartItem }) => [
      ...others.map((other) => cartItem.delete({ customerId, merchantAccountId, cartItemId: other.cartItemId }).commit()),
      cartItem.put(item).commit(),
    ])
    .go();
  // No condition is set: only a collision with another write of this cart cancels it.
  if (result.canceled) throw new Conflict('Your cart changed in another tab at the same moment: try again.');
  return priceCartItem(merchant, item, grade, product).view;
}

/**
 * A line of the caller's own cart (any shop's), by its id; a line of anyone else's is not found:
 * only the caller's partition is read. The id alone does not name the shop (the sort key's first
 * part): the customer's few lines are read and matched.
 */
async function readOwnLine(db: Db, customerId: string, cartItemId: string): Promise<CartItemItem> {
  const { data } = await db.entities.cartItem.query
    .byCustomer({ customerId })
    .where((attributes, { eq }) => eq(attributes.cartItemId, cartItemId))
    .go({ pages: 'all', consistent: true });
  const item = data[0];
  if (!item) throw new CartItemNotFound();
  return item;
}

/**
 * Sets how many of a line the caller's own cart holds (the quantity given, not added), once the
 * grade is checked to be buyable still and a subscription kept at one. The price it was added at
 * stays: a price that moved since is still flagged. Someone else's line is not found.
 */
export async function setCartItemQuantity(
  db: Db,
  customerId: string,
  cartItemId: string,
  quantity: number,
): Promise<CartItemView> {
  const line = await readOwnLine(db, customerId, cartItemId);
  const { grade, product, merchant } = await sellableGrade(db, customerId, line.productStockGradeId);
  checkQuantity(grade, quantity);
  if (quantity > MAX_QUANTITY) throw new BadRequest(`At most ${MAX_QUANTITY} of one item fit in a cart.`);
  try {
    // A patch is conditioned on the line existing: removed meanwhile (another tab), it is not found.
    const { data } = await db.entities.cartItem
      .patch({ customerId, merchantAccountId: line.merchantAccountId, cartItemId })
      .set({ quantity })
      .go({ response: 'all_new' });
    return priceCartItem(merchant, data as CartItemItem, grade, product).view;
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new CartItemNotFound();
    throw error;
  }
}

/** One of the caller's open carts: its shop, what can be bought in it, its lines and when it was last added to. */
export interface OpenCart {
  merchantAccountId: string;
  shop: { id: string; handle: string; shopName: string };
  itemCount: number;
  lineCount: number;
  unavailableLineCount: number;
  lastAddedAt: string;
}

/**
 * The caller's open carts, the one added to last first: their partition in one query, then the
 * shops, grades and products in batch reads side by side. `itemCount` is what can be bought now
 * (quantities added up, a subscription one): a line whose grade or product is no longer sold,
 * or whose shop closed, is counted apart (`unavailableLineCount`), so the top bar's count is
 * never of things nobody can pay for, while the cart's page still lists them to be removed. A
 * cart whose shop is gone is left out: its page would be 404.
 */
export async function listOpenCarts(db: Db, customerId: string): Promise<OpenCart[]> {
  const { data } = await db.entities.cartItem.query.byCustomer({ customerId }).go({ pages: 'all' });
  const linesByShop = new Map<string, CartItemItem[]>();
  for (const item of data) linesByShop.set(item.merchantAccountId, [...(linesByShop.get(item.merchantAccountId) ?? []), item]);
  if (linesByShop.size === 0) return [];
  const [merchants, catalog] = await Promise.all([
    getBatch({
      keys: [...linesByShop.keys()].map((merchantAccountId) => ({ merchantAccountId })),
      send: async (keys) => {
        const { data: found, unprocessed } = await db.entities.merchantAccount.get(keys).go();
        return { data: found, unprocessed: unprocessed.map((key) => ({ merchantAccountId: key.merchantAccountId })) };
      },
      what: 'shops',
    }),
    readCatalog(
      db,
      data.map((item) => item.productStockGradeId),
      data.map((item) => item.productStockId),
    ),
  ]);
  return merchants
    .map((merchant) => {
      const lines = linesByShop.get(merchant.merchantAccountId);
      if (!lines) throw new Error(`Shop ${merchant.merchantAccountId} was not asked for`);
      const views = lines.map(
        (item) =>
          priceCartItem(
            merchant,
            item,
            catalog.grades.get(item.productStockGradeId) ?? null,
            catalog.products.get(item.productStockId) ?? null,
          ).view,
      );
      const buyable = views.filter((view) => view.status !== 'unavailable');
      return {
        merchantAccountId: merchant.merchantAccountId,
        shop: { id: merchant.merchantAccountId, handle: merchant.handle, shopName: merchant.shopName },
        itemCount: buyable.reduce((sum, view) => sum + view.quantity, 0),
        lineCount: lines.length,
        unavailableLineCount: views.length - buyable.length,
        lastAddedAt: lines.reduce((latest, item) => (item.addedAt > latest ? item.addedAt : latest), lines[0]?.addedAt ?? ''),
      };
    })
    .sort((a, b) => b.lastAddedAt.localeCompare(a.lastAddedAt) || a.merchantAccountId.localeCompare(b.merchantAccountId));
}

/** Takes a line out of the caller's own cart (any shop's); a line of anyone else's is not found. */
export async function removeFromCart(db: Db, customerId: string, cartItemId: string): Promise<CartItemView> {
  const item = await readOwnLine(db, customerId, cartItemId);
  const [deleted, priced] = await Promise.all([
    db.entities.cartItem
      .delete({ customerId, merchantAccountId: item.merchantAccountId, cartItemId })
      .go({ response: 'all_old' }),
    (async () => {
      const merchant = await readMerchantById(db, item.merchantAccountId);
      return (await priceCart(db, merchant, [item]))[0];
    })(),
  ]);
  // Removed by another tab between the read and the delete: it is not in the cart, as asked, but this call did not remove it.
  if (!deleted.data) throw new CartItemNotFound();
  if (!priced) throw new Error(`Cart item ${cartItemId} could not be priced`);
  return priced.view;
}

// ---------------------------------------------------------------------------------------------
// The invoice of a cart

/** What a cart line charges: the grade, how many, at what unit price, once or as a subscription's first cycle. */
export interface ChargedLine {
  productStockGradeId: string;
  quantity: number;
  unitPriceMinor: number;
  billing: Billing;
  /** What a discount code takes off the line. */
  discountMinor: number;
}

/** The open-invoice pointer a cart's invoice is current under: one per customer and shop. */
export const CART_POINTER = 'cart';

/**
 * What a set of lines charges, as the cart pointer's content key: a hash, so the same cart
 * answers the same open invoice and any change to a grade, a quantity, a price or a billing kind
 * answers a new one (superseding the last). 22 base64url characters of SHA-256 (132 bits).
 */
export function cartInvoiceKey(lines: readonly ChargedLine[], codeKey?: string): string {
  const canonical = lines
    // A line's discount only when it has one: the keys of carts without a code stay what they were.
    .map(
      (line) =>
        `${line.productStockGradeId}:${line.quantity}:${line.unitPriceMinor}:${line.billing}` +
        (line.discountMinor > 0 ? `:-${line.discountMinor}` : ''),
    )
    .sort()
    .concat(codeKey === undefined ? [] : [`code:${codeKey}`])
    .join('\n');
  return `cart:${createHash('sha256').update(canonical).digest('base64url').slice(0, 22)}`;
}

/** An invoice's lines as the key sees them. */
export const chargedLinesOf = (lines: InvoiceItem['lines']): ChargedLine[] =>
  lines.map((line) => ({
    productStockGradeId: line.priceId,
    quantity: line.quantity,
    unitPriceMinor: line.amountMinor,
    billing: line.billing ?? 'once',
    discountMinor: line.discountMinor ?? 0,
  }));

export function toStoreInvoiceView(invoice: InvoiceItem): StoreInvoiceView {
  const money = (amountMinor: number) => ({ amountMinor, currency: invoice.currency });
  return {
    id: invoice.invoiceId,
    merchantAccountId: invoice.sellerId,
    status: invoice.status,
    lines: invoice.lines.map((line) => ({
      productStockId: line.productId,
      productStockGradeId: line.priceId,
      description: line.description,
      billing: line.billing ?? 'once',
      quantity: line.quantity,
      unitPrice: money(line.amountMinor),
      discount: money(line.discountMinor ?? 0),
    })),
    total: money(invoice.totalMinor),
    discount: invoice.discount
      ? { code: invoice.discount.code, saving: money(savingOf(invoice)), appliesTo: invoice.discount.appliesTo }
      : null,
    lastDecline: invoice.lastDecline ?? null,
    paidAt: invoice.paidAt ?? null,
    createdAt: invoice.createdAt,
  };
}

/**
 * The caller's cart at a shop, priced now, and its invoice: the purchasable lines only (a line
 * whose price changed is invoiced at the new price and flagged with both), made on the first
 * call and answered again while the cart charges the same. Null when nothing can be bought.
 */
export async function cartInvoice(
  db: Db,
  customerId: string,
  merchantAccountId: string,
  now: Date,
  discountCode?: string,
): Promise<{ shop: ShopView; items: CartItemView[]; invoice: StoreInvoiceView | null }> {
  const [merchant, items] = await Promise.all([
    readMerchantById(db, merchantAccountId),
    readCart(db, customerId, merchantAccountId),
  ]);
  if (!merchant) throw new ShopNotFound();
  const priced = await priceCart(db, merchant, items, true);
  const buyable = priced.filter(
    (line): line is PricedCartItem & { grade: ProductStockGradeItem; product: ProductStockItem } =>
      line.view.status !== 'unavailable' && line.grade !== null && line.product !== null,
  );
  const shop = await toShopView(merchant);
  const views = priced.map((line) => line.view);
  if (buyable.length === 0) return { shop, items: views, invoice: null };
  // Adds racing in two tabs can pass the limit by a line or two; a paid cart is one transaction, so it is held here.
  if (buyable.length > MAX_CART_LINES) throw cartFull();
  const fullPrice: (InvoiceLine & { billing: Billing })[] = buyable.map(({ grade, product, view }) => ({
    productId: product.productStockId,
    priceId: grade.productStockGradeId,
    description: lineDescription(product.title, grade.name),
    quantity: view.quantity,
    amountMinor: grade.priceMinor,
    billing: billingOf(grade),
  }));
  // Priced with the code here, never by the browser; a refusal says why and makes no invoice.
  const discounted = discountCode
    ? await priceWithCode(db, { merchant, customerId, code: discountCode, lines: fullPrice, now })
    : null;
  const lines = discounted?.lines ?? fullPrice;
  const invoice = await openInvoiceFor(db, {
    customerId,
    sellerId: merchant.merchantAccountId,
    openAs: CART_POINTER,
    // The same cart with a code is another invoice: paying one never charges the other's price.
    contentKey: cartInvoiceKey(chargedLinesOf(lines), discounted?.discount.codeKey),
    purpose: 'order',
    price: () => ({ lines, currency: merchant.currency, ...(discounted ? { discount: discounted.discount } : {}) }),
    now,
  });
  return { shop, items: views, invoice: toStoreInvoiceView(invoice) };
}
