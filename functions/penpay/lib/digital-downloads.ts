/**
 * The files a customer's orders deliver, and their downloads. A download is for the buyer of a
 * paid order (a storeOrder exists only once its invoice is paid) whose lines hold the file's
 * grade, while digital-access.ts allows it; each is counted by a conditional ADD on the order's
 * counter for that file, so parallel downloads take exactly the downloads the grade allows, and
 * is answered with a presigned GET of five minutes that saves the file under its name.
 */
import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import type { OrderDownloadView } from '../../../shared/schemas/digital-products';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import { gradeFolder, storedKeyOf, type StoredFileItem } from '../../lib/db/entities/stored-file';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { Gone, HttpError, NotFound } from '../../lib/errors';
import { presignGet } from '../../lib/files/file-bucket';
import { givesEntitlement } from '../../lib/payments/entitlement';
import { FileNotFound } from '../../lib/files/stored-files';
import { accessOf, downloadsLeft, isRefunded } from './digital-access';
import { downloadsPerPurchaseOf, listGradeFiles } from './digital-files';

/** As a transfer's download link: time enough to start the download. */
export const ORDER_DOWNLOAD_LINK_SECONDS = 300;

export class OrderNotFound extends NotFound {
  constructor() {
    super('There is no such order, or it is not yours.');
  }
}

export class PurchaseRefunded extends Gone {
  constructor(name: string) {
    super(`This purchase was refunded, so ${name} can no longer be downloaded.`, { code: 'PURCHASE_REFUNDED' });
  }
}

/** A 403 (Forbidden's status) with its own code, so the page can tell it from other refusals. */
export class SubscriptionEnded extends HttpError {
  constructor(name: string) {
    super(
      403,
      'SUBSCRIPTION_ENDED',
      `Your subscription has ended, so ${name} can no longer be downloaded: subscribe again to download it.`,
    );
  }
}

export class DownloadsUsedUp extends Gone {
  constructor(name: string, limit: number) {
    super(`You have used all ${limit} downloads of ${name} this purchase allows.`, {
      code: 'DOWNLOADS_USED_UP',
      downloadLimit: limit,
    });
  }
}

type OrderLine = StoreOrderItem['lines'][number];

/** Whether one of the customer's subscriptions to the grade gives entitlement now (active, or past due within its grace). */
export async function isEntitled(db: Db, order: StoreOrderItem, line: OrderLine, now: Date): Promise<boolean> {
  const { data } = await db.entities.subscription.query
    .byCustomer({ customerId: order.customerId, sellerId: order.merchantAccountId, productId: line.productStockId })
    .go({ pages: 'all' });
  return data.some(
    (subscription) =>
      subscription.priceId === line.productStockGradeId && givesEntitlement(subscription, now, PAST_DUE_GRACE_DAYS),
  );
}

const gradeIdsOf = (order: StoreOrderItem) => [...new Set(order.lines.map((line) => line.productStockGradeId))];

/**
 * The files each order delivers, with the downloads left of each: the grades' files, the grades'
 * limits, the counters and the subscriptions read once for the whole page.
 */
export async function downloadsOfOrders(
  db: Db,
  orders: readonly StoreOrderItem[],
  now: Date,
): Promise<Map<string, OrderDownloadView[]>> {
  const gradeIds = [...new Set(orders.flatMap(gradeIdsOf))];
  const filesByGrade = new Map(
    await Promise.all(
      gradeIds.map(
        async (gradeId) => [gradeId, (await listGradeFiles(db, gradeId)).filter((file) => file.status === 'ready')] as const,
      ),
    ),
  );
  const delivering = gradeIds.filter((gradeId) => (filesByGrade.get(gradeId)?.length ?? 0) > 0);
  const answer = new Map<string, OrderDownloadView[]>(orders.map((order) => [order.invoiceId, []]));
  if (delivering.length === 0) return answer;
  const [grades, counters] = await Promise.all([
    db.entities.productStockGrade.get(delivering.map((productStockGradeId) => ({ productStockGradeId }))).go(),
    db.entities.storeDownload
      .get(
        orders.flatMap((order) =>
          gradeIdsOf(order).flatMap((gradeId) =>
            (filesByGrade.get(gradeId) ?? []).map((file) => ({ invoiceId: order.invoiceId, fileId: file.fileId })),
          ),
        ),
      )
      .go(),
  ]);
  const gradeById = new Map(grades.data.map((grade) => [grade.productStockGradeId, grade]));
  const taken = new Map(counters.data.map((counter) => [`${counter.invoiceId}/${counter.fileId}`, counter.count]));
  for (const order of orders) {
    const seen = new Set<string>();
    for (const line of order.lines) {
      const files = filesByGrade.get(line.productStockGradeId) ?? [];
      if (files.length === 0 || seen.has(line.productStockGradeId)) continue;
      seen.add(line.productStockGradeId);
      const entitled = line.billing === 'subscription' ? await isEntitled(db, order, line, now) : true;
      const limit = downloadsPerPurchaseOf(gradeById.get(line.productStockGradeId) ?? null);
      for (const file of files) {
        const count = taken.get(`${order.invoiceId}/${file.fileId}`) ?? 0;
        answer.get(order.invoiceId)?.push({
          fileId: file.fileId,
          productStockGradeId: line.productStockGradeId,
          name: file.name,
          size: file.size,
          type: file.contentType,
          downloadLimit: limit,
          downloadsLeft: downloadsLeft(count, limit),
          access: accessOf({
            order,
            productStockGradeId: line.productStockGradeId,
            billing: line.billing,
            entitled,
            downloadsTaken: count,
            downloadLimit: limit,
          }),
        });
      }
    }
  }
  return answer;
}

/** The caller's paid order and the file one of its grades delivers; anything else is 404, as an unknown id. */
async function requireBoughtFile(db: Db, customerId: string, invoiceId: string, fileId: string) {
  const [{ data: order }, { data: file }] = await Promise.all([
    db.entities.storeOrder.get({ invoiceId }).go({ consistent: true }),
    db.entities.storedFile.get({ fileId }).go(),
  ]);
  if (!order || order.customerId !== customerId) throw new OrderNotFound();
  const line = order.lines.find((candidate) => file?.folder === gradeFolder(candidate.productStockGradeId));
  if (!file || !line || file.purpose !== 'product' || file.status !== 'ready') throw new FileNotFound();
  return { order, file, line };
}

/**
 * Counts one download of the file for the order, on condition that the count is under the
 * limit: of parallel downloads exactly `limit` pass. Answers the downloads left after it.
 */
async function claimDownload(db: Db, order: StoreOrderItem, file: StoredFileItem, limit: number, now: Date) {
  try {
    const { data } = await db.entities.storeDownload
      .update({ invoiceId: order.invoiceId, fileId: file.fileId })
      .add({ count: 1 })
      .set({ customerId: order.customerId, lastDownloadAt: now.toISOString() })
      .where(({ count }, { notExists, lt }) => `${notExists(count)} OR ${lt(count, limit)}`)
      .go({ response: 'all_new' });
    return downloadsLeft(data.count ?? limit, limit);
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new DownloadsUsedUp(file.name, limit);
    throw error;
  }
}

/** Gives back a download counted for a link that could not be made. */
async function releaseDownload(db: Db, order: StoreOrderItem, file: StoredFileItem) {
  await db.entities.storeDownload
    .patch({ invoiceId: order.invoiceId, fileId: file.fileId })
    .add({ count: -1 })
    .go()
    .catch(() => undefined);
}

export async function downloadOrderFile(db: Db, customerId: string, invoiceId: string, fileId: string, now: Date) {
  const { order, file, line } = await requireBoughtFile(db, customerId, invoiceId, fileId);
  if (isRefunded(order, line.productStockGradeId)) throw new PurchaseRefunded(file.name);
  if (line.billing === 'subscription' && !(await isEntitled(db, order, line, now))) throw new SubscriptionEnded(file.name);
  const { data: grade } = await db.entities.productStockGrade.get({ productStockGradeId: line.productStockGradeId }).go();
  const limit = downloadsPerPurchaseOf((grade as ProductStockGradeItem | null) ?? null);
  const left = await claimDownload(db, order, file, limit, now);
  let url: string;
  try {
    url = await presignGet({
      key: storedKeyOf(file),
      fileName: file.name,
      contentType: file.contentType,
      disposition: 'attachment',
      expiresInSeconds: ORDER_DOWNLOAD_LINK_SECONDS,
    });
  } catch (error) {
    await releaseDownload(db, order, file);
    throw error;
  }
  return {
    url,
    name: file.name,
    size: file.size,
    downloadsLeft: left,
    expiresAt: new Date(now.getTime() + ORDER_DOWNLOAD_LINK_SECONDS * 1000).toISOString(),
  };
}
