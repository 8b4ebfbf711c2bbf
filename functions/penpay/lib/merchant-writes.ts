/**
 * A merchant's changes to their own shop: registering it, its account, its products and grades
 * (its Braintree connection is gateway-connection.ts, which alone needs the gateway and the
 * keys' sealing). Every change is made to an item already proven to be the caller's
 * (readMyMerchant, readMyProduct, readMyGrade).
 */
import type * as z from '../../../shared/zod';
import type {
  createGradeBodySchema,
  createProductBodySchema,
  registerMerchantBodySchema,
  updateGradeDisplayBodySchema,
  updateMerchantBodySchema,
  updateProductDisplayBodySchema,
} from '../../../shared/schemas/merchant';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import { type ProductStockItem, shelfKeys } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import { storedKeyOf } from '../../lib/db/entities/stored-file';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { BadRequest, Conflict, NotFound } from '../../lib/errors';
import { readMyGrade, readMyProduct, refreshProductSummary } from './catalog';
import { newGradeId, newMerchantAccountId, newProductStockId } from './ids';

type RegisterBody = z.infer<typeof registerMerchantBodySchema>;
type UpdateMerchantBody = z.infer<typeof updateMerchantBodySchema>;
type CreateProductBody = z.infer<typeof createProductBodySchema>;
type ProductDisplayBody = z.infer<typeof updateProductDisplayBodySchema>;
type CreateGradeBody = z.infer<typeof createGradeBodySchema>;
type GradeDisplayBody = z.infer<typeof updateGradeDisplayBodySchema>;

export type StoredImage = NonNullable<MerchantAccountItem['logo']>;
export type GradePlan = NonNullable<ProductStockGradeItem['plan']>;

/** A product's grades are read whole on every grade change: tens, not thousands. */
export const MAX_GRADES_PER_PRODUCT = 50;

// ---------------------------------------------------------------------------------------------
// Images

export class ImageNotFound extends NotFound {
  constructor() {
    super('No such image. Upload it first and use the file id the upload answers.');
  }
}

/**
 * An image the caller uploaded and that finished uploading, as a shop keeps it (with where its
 * bytes are, so pages link it without reading the file's record). Someone else's file is as
 * absent as a made-up id.
 */
export async function readyImage(db: Db, ownerId: string, fileId: string): Promise<StoredImage> {
  const { data: file } = await db.entities.storedFile.get({ fileId }).go({ consistent: true });
  if (!file || file.ownerId !== ownerId) throw new ImageNotFound();
  if (file.purpose !== 'image' || file.status !== 'ready') {
    throw new BadRequest(
      `File ${fileId} is not a finished image upload: upload the image first (as a file, base64 or an address), then use the id it answers.`,
    );
  }
  return { fileId: file.fileId, objectKey: storedKeyOf(file), name: file.name, contentType: file.contentType };
}

async function readyImages(db: Db, ownerId: string, fileIds: readonly string[]): Promise<StoredImage[]> {
  // The same picture twice is a slip of the form, not two pictures.
  return Promise.all([...new Set(fileIds)].map((fileId) => readyImage(db, ownerId, fileId)));
}

// ---------------------------------------------------------------------------------------------
// The merchant account

export class ShopAlreadyRegistered extends Conflict {
  constructor() {
    super('You already have a shop: each person has one merchant account. Open it from your merchant dashboard.');
  }
}

export class HandleTaken extends Conflict {
  constructor(handle: string) {
    super(`The shop address "${handle}" is taken: choose another.`);
  }
}

/**
 * Makes the caller's merchant account, its owner record and its handle in one transaction whose
 * two conditional creates keep one shop per person and one shop per handle, whoever registers
 * at the same moment.
 */
export async function registerMerchant(db: Db, ownerId: string, body: RegisterBody, now: Date): Promise<MerchantAccountItem> {
  const logo = body.logoFileId === undefined ? undefined : await readyImage(db, ownerId, body.logoFileId);
  const merchant: MerchantAccountItem = {
    merchantAccountId: newMerchantAccountId(),
    ownerId,
    handle: body.handle,
    shopName: body.shopName,
    description: body.description,
    currency: body.currency,
    ...(logo ? { logo } : {}),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  return retryContendedWrite({ what: 'registering shops' }, async () => {
    const result = await db.transaction
      .write(({ merchantOwner, merchantHandle, merchantAccount }) => [
        merchantOwner.create({ ownerId, merchantAccountId: merchant.merchantAccountId }).commit(),
        merchantHandle.create({ handle: merchant.handle, merchantAccountId: merchant.merchantAccountId }).commit(),
        merchantAccount.create(merchant).commit(),
      ])
      .go();
    if (!result.canceled) return merchant;
    const failed = failedConditions(result);
    // Having a shop is the answer that matters more: a second shop under another handle is refused too.
    if (failed.includes(0)) throw new ShopAlreadyRegistered();
    if (failed.includes(1)) throw new HandleTaken(merchant.handle);
    // Cancelled by a concurrent transaction on the same items: worth trying again as it was.
    return lostRace(result);
  });
}

/** The shop's name, description or logo; the handle and currency stay (links and prices depend on them). */
export async function updateMerchant(
  db: Db,
  merchant: MerchantAccountItem,
  body: UpdateMerchantBody,
  now: Date,
): Promise<MerchantAccountItem> {
  const logo = typeof body.logoFileId === 'string' ? await readyImage(db, merchant.ownerId, body.logoFileId) : undefined;
  const set = {
    ...(body.shopName !== undefined ? { shopName: body.shopName } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(logo ? { logo } : {}),
  };
  const removeLogo = body.logoFileId === null && merchant.logo !== undefined;
  if (Object.keys(set).length === 0 && !removeLogo) return merchant;
  const update = db.entities.merchantAccount
    .patch({ merchantAccountId: merchant.merchantAccountId })
    .set({ ...set, updatedAt: now.toISOString() });
  const { data } = await (removeLogo ? update.remove(['logo']) : update).go({ response: 'all_new' });
  return data as MerchantAccountItem;
}

// ---------------------------------------------------------------------------------------------
// Products

export async function createProduct(
  db: Db,
  merchant: MerchantAccountItem,
  body: CreateProductBody,
  now: Date,
): Promise<ProductStockItem> {
  const images = await readyImages(db, merchant.ownerId, body.imageFileIds);
  const display = productDisplay({ featured: false, position: 0 }, body.display);
  const product: ProductStockItem = {
    productStockId: newProductStockId(),
    merchantAccountId: merchant.merchantAccountId,
    title: body.title,
    description: body.description,
    images,
    display,
    visibility: body.visibility,
    stocked: true,
    ...shelfKeys({ stocked: true, visibility: body.visibility, featured: display.featured, position: display.position }),
    gradeCount: 0,
    currency: merchant.currency,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await db.entities.productStock.create(product).go();
  return product;
}

/** Display settings with the given ones laid over: an empty text takes that setting away. */
function productDisplay(
  current: ProductStockItem['display'],
  given: NonNullable<ProductDisplayBody['display']>,
): ProductStockItem['display'] {
  const tagline = given.tagline ?? current.tagline;
  const accentColor = given.accentColor ?? current.accentColor;
  return {
    featured: given.featured ?? current.featured,
    position: given.position ?? current.position,
    ...(tagline ? { tagline } : {}),
    ...(accentColor ? { accentColor } : {}),
  };
}

type ProductChange = Partial<Pick<ProductStockItem, 'title' | 'description' | 'images' | 'display' | 'visibility' | 'stocked'>>;

/**
 * Changes one of the merchant's products from what it is now: read, change, and write on the
 * condition that nobody wrote it since (else read again). The derived index fields are written
 * with every change, all of them, so the feeds and the shop's shelf follow it. `change` answering
 * null means nothing to do: the product is answered as it is, untouched.
 */
export async function changeProduct(
  db: Db,
  merchant: MerchantAccountItem,
  productStockId: string,
  now: Date,
  change: (product: ProductStockItem) => ProductChange | null | Promise<ProductChange | null>,
): Promise<ProductStockItem> {
  // A write whose condition on `updatedAt` failed (another write got there between our read and
  // our write) is thrown, and retryContendedWrite reads again.
  return retryContendedWrite({ what: 'changing this product' }, async () => {
    const product = await readMyProduct(db, merchant, productStockId);
    const changed = await change(product);
    if (!changed) return product;
    const next: ProductStockItem = { ...product, ...changed, updatedAt: laterThan(product.updatedAt, now) };
    const keys = shelfKeys({
      stocked: next.stocked,
      visibility: next.visibility,
      featured: next.display.featured,
      position: next.display.position,
    });
    await db.entities.productStock
      .patch({ productStockId })
      .set({ ...changed, ...keys, createdAt: product.createdAt, updatedAt: next.updatedAt })
      .where(({ updatedAt }, { eq }) => eq(updatedAt, product.updatedAt))
      .go();
    return { ...next, ...keys };
  });
}

export function productDisplayChange(
  db: Db,
  merchant: MerchantAccountItem,
  body: ProductDisplayBody,
): (product: ProductStockItem) => Promise<ProductChange | null> {
  return async (product) => {
    const images = body.imageFileIds === undefined ? undefined : await readyImages(db, merchant.ownerId, body.imageFileIds);
    const change: ProductChange = {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(images ? { images } : {}),
      ...(body.display ? { display: productDisplay(product.display, body.display) } : {}),
    };
    return Object.keys(change).length > 0 ? change : null;
  };
}

// ---------------------------------------------------------------------------------------------
// Grades

/** Grade display settings with the given ones laid over: an empty badge takes it away. */
function gradeDisplay(
  current: ProductStockGradeItem['display'],
  given: NonNullable<GradeDisplayBody['display']>,
): ProductStockGradeItem['display'] {
  const badge = given.badge ?? current.badge;
  const features = given.features ?? current.features;
  return {
    highlighted: given.highlighted ?? current.highlighted,
    position: given.position ?? current.position,
    ...(badge ? { badge } : {}),
    ...(features && features.length > 0 ? { features } : {}),
  };
}

/**
 * A grade's place among its product's grades. Its position alone: a highlighted grade ("most
 * popular") is shown where the merchant puts it, usually in the middle of a pricing table, not first.
 */
const gradeShelfKeys = (grade: Pick<ProductStockGradeItem, 'stocked' | 'visibility' | 'display'>) =>
  shelfKeys({ stocked: grade.stocked, visibility: grade.visibility, position: grade.display.position });

export async function createGrade(
  db: Db,
  merchant: MerchantAccountItem,
  product: ProductStockItem,
  body: CreateGradeBody,
  plan: GradePlan | null,
  now: Date,
): Promise<ProductStockGradeItem> {
  if (product.gradeCount >= MAX_GRADES_PER_PRODUCT) {
    throw new Conflict(`A product has at most ${MAX_GRADES_PER_PRODUCT} grades: unstock or change one of its grades instead.`);
  }
  // Without a position a new grade goes after the product's others, not among them in id order.
  const display = gradeDisplay({ highlighted: false, position: Math.min(product.gradeCount, 9_999) }, body.display);
  const grade: ProductStockGradeItem = {
    productStockGradeId: newGradeId(),
    productStockId: product.productStockId,
    merchantAccountId: merchant.merchantAccountId,
    name: body.name,
    description: body.description,
    display,
    visibility: body.visibility,
    stocked: true,
    ...gradeShelfKeys({ stocked: true, visibility: body.visibility, display }),
    priceMinor: body.amountMinor,
    // The shop's, always: a shop sells in one currency, and its plans are checked against it.
    currency: merchant.currency,
    ...(plan ? { plan } : {}),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await db.entities.productStockGrade.create(grade).go();
  await refreshProductSummary(db, product.productStockId, grade, now);
  return grade;
}

type GradeChange = Partial<
  Pick<ProductStockGradeItem, 'name' | 'description' | 'display' | 'visibility' | 'stocked' | 'priceMinor'>
> & {
  /** null: sold once from now on. */
  plan?: GradePlan | null;
};

/**
 * Changes one of the merchant's grades as changeProduct changes a product, then brings its
 * product's summary (grade count, lowest price) up to date with the grade as written.
 */
export async function changeGrade(
  db: Db,
  merchant: MerchantAccountItem,
  where: { productStockId?: string | undefined; productStockGradeId: string },
  now: Date,
  change: (grade: ProductStockGradeItem) => GradeChange | null | Promise<GradeChange | null>,
): Promise<ProductStockGradeItem> {
  // As changeProduct: a failed condition on `updatedAt` is thrown, and retried (read again).
  const outcome = await retryContendedWrite({ what: 'changing this grade' }, async () => {
    const grade = await readMyGrade(db, merchant, where.productStockId, where.productStockGradeId);
    const changed = await change(grade);
    if (!changed) return { grade, written: false };
    const { plan, ...fields } = changed;
    const next: ProductStockGradeItem = { ...grade, ...fields, updatedAt: laterThan(grade.updatedAt, now) };
    if (plan === null) delete next.plan;
    else if (plan) next.plan = plan;
    const keys = gradeShelfKeys(next);
    const update = db.entities.productStockGrade
      .patch({ productStockGradeId: grade.productStockGradeId })
      .set({ ...fields, ...(plan ? { plan } : {}), ...keys, updatedAt: next.updatedAt });
    await (plan === null ? update.remove(['plan']) : update)
      .where(({ updatedAt }, { eq }) => eq(updatedAt, grade.updatedAt))
      .go();
    return { grade: { ...next, ...keys }, written: true };
  });
  // Once the grade is written, and outside the retried write: a failure of the summary's own
  // write must not write the grade again.
  if (outcome.written) await refreshProductSummary(db, outcome.grade.productStockId, outcome.grade, now);
  return outcome.grade;
}

export function gradeDisplayChange(body: GradeDisplayBody): (grade: ProductStockGradeItem) => GradeChange | null {
  return (grade) => {
    const change: GradeChange = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.display ? { display: gradeDisplay(grade.display, body.display) } : {}),
    };
    return Object.keys(change).length > 0 ? change : null;
  };
}

/**
 * The time of a change: now, or a millisecond after the last one when the clock says otherwise,
 * so `updatedAt` always moves and the next writer's condition sees the change.
 */
function laterThan(previous: string, now: Date): string {
  const after = Date.parse(previous) + 1;
  return new Date(Math.max(now.getTime(), Number.isNaN(after) ? 0 : after)).toISOString();
}
