/**
 * The files a grade delivers after purchase, on the merchant's side. They are the file-transfer
 * app's stored files (purpose 'product', listed under the grade's folder, their bytes under the
 * shop's `store/<shop id>/` keys, never public), made pending here and then uploaded, resumed and
 * finalized through the same upload steps and routes as a transfer's files, which act on the
 * owner's files: the shop's owner is theirs.
 */
import {
  DEFAULT_DOWNLOADS_PER_PURCHASE,
  MAX_FILES_PER_GRADE,
  type GradeFilesView,
} from '../../../shared/schemas/digital-products';
import type { UploadingFile } from '../../../shared/schemas/transfers';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import { gradeFolder, type StoredFileItem } from '../../lib/db/entities/stored-file';
import type { Db } from '../../lib/db/service';
import { BadRequest } from '../../lib/errors';
import { logger } from '../../lib/logger';
import {
  abortPendingUploads,
  checkedDeclaration,
  type DeclaredFile,
  FileNotFound,
  type FileOwner,
  objectKeyOf,
  pendingFileOf,
  removeFile,
  requireOwnFile,
  newEntityId,
  toFileView,
  uploadTargetFor,
} from '../../lib/files/stored-files';
import { readMyGrade } from './catalog';
import { readMyMerchant } from './merchants';

export const downloadsPerPurchaseOf = (grade: Pick<ProductStockGradeItem, 'downloadsPerPurchase'> | null): number =>
  grade?.downloadsPerPurchase ?? DEFAULT_DOWNLOADS_PER_PURCHASE;

/** One of the caller's grades, by id alone; another merchant's is 404 as an unknown one. */
export async function requireMyGradeById(db: Db, caller: FileOwner, productStockGradeId: string) {
  const merchant = await readMyMerchant(db, caller.userId);
  return { merchant, grade: await readMyGrade(db, merchant, undefined, productStockGradeId) };
}

/** Every file a grade delivers, in any state, oldest first. */
export async function listGradeFiles(db: Db, productStockGradeId: string): Promise<StoredFileItem[]> {
  const { data } = await db.entities.storedFile.query.byFolder({ folder: gradeFolder(productStockGradeId) }).go({ pages: 'all' });
  return data.filter((file) => file.purpose === 'product');
}

export async function gradeFilesView(db: Db, grade: ProductStockGradeItem): Promise<GradeFilesView> {
  const files = await listGradeFiles(db, grade.productStockGradeId);
  return { downloadsPerPurchase: downloadsPerPurchaseOf(grade), items: files.map(toFileView) };
}

/**
 * Pending files of the caller's grade, each answered with where its bytes go (a presigned POST,
 * or a multipart upload whose parts sign-parts signs), as a transfer's files are. A grade holds
 * at most MAX_FILES_PER_GRADE: counted before the write, so two racing calls could pass it by a
 * few, which costs the merchant storage and nobody money.
 */
export async function createGradeFiles(
  db: Db,
  caller: FileOwner,
  productStockGradeId: string,
  declaredFiles: readonly DeclaredFile[],
  now: Date,
): Promise<UploadingFile[]> {
  const { merchant, grade } = await requireMyGradeById(db, caller, productStockGradeId);
  const checked = declaredFiles.map(checkedDeclaration);
  const existing = await listGradeFiles(db, grade.productStockGradeId);
  if (existing.length + checked.length > MAX_FILES_PER_GRADE) {
    throw new BadRequest(
      `A grade delivers at most ${MAX_FILES_PER_GRADE} files: it has ${existing.length}, and these would make ${existing.length + checked.length}.`,
    );
  }
  const items: StoredFileItem[] = [];
  try {
    for (const declared of checked) {
      const fileId = newEntityId();
      items.push(
        await pendingFileOf({
          declared,
          fileId,
          purpose: 'product',
          owner: caller,
          folder: gradeFolder(grade.productStockGradeId),
          objectKey: objectKeyOf({ purpose: 'product', merchantAccountId: merchant.merchantAccountId, fileId }),
          now,
        }),
      );
    }
    await db.transaction.write(({ storedFile }) => items.map((item) => storedFile.create(item).commit())).go();
  } catch (error) {
    await abortPendingUploads(items);
    throw error;
  }
  return Promise.all(items.map(async (item) => ({ file: toFileView(item), upload: await uploadTargetFor(item, now) })));
}

/**
 * Removes a file of the caller's grade, with its bytes: its buyers no longer find it either.
 * A file of another grade, or anyone else's, is 404.
 */
export async function removeGradeFile(db: Db, caller: FileOwner, productStockGradeId: string, fileId: string) {
  const { grade } = await requireMyGradeById(db, caller, productStockGradeId);
  const file = await requireOwnFile(db, fileId, caller);
  if (file.purpose !== 'product' || file.folder !== gradeFolder(grade.productStockGradeId)) throw new FileNotFound();
  await removeFile(db, file);
  return { file: toFileView(file) };
}

/** Sets how many downloads of each file one purchase of the caller's grade gets, from the next download on. */
export async function setDownloadsPerPurchase(
  db: Db,
  caller: FileOwner,
  productStockGradeId: string,
  downloadsPerPurchase: number,
  now: Date,
): Promise<GradeFilesView> {
  const { grade } = await requireMyGradeById(db, caller, productStockGradeId);
  await db.entities.productStockGrade
    .patch({ productStockGradeId: grade.productStockGradeId })
    .set({ downloadsPerPurchase, updatedAt: now.toISOString() })
    .go();
  return gradeFilesView(db, { ...grade, downloadsPerPurchase });
}

/**
 * The names of the ready files the grades deliver, for the receipt. Never fails the payment that
 * asks: a read that fails is logged, and the receipt goes without the list (the orders page has it).
 */
export async function deliveredFileNames(db: Db, productStockGradeIds: readonly string[]): Promise<string[]> {
  try {
    const lists = await Promise.all([...new Set(productStockGradeIds)].map((gradeId) => listGradeFiles(db, gradeId)));
    return lists.flat().flatMap((file) => (file.status === 'ready' ? [file.name] : []));
  } catch (error) {
    logger.warn('The files of a paid order could not be listed for its receipt', { errorName: (error as Error).name });
    return [];
  }
}
