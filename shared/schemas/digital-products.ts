/**
 * Digital products: files a grade delivers after purchase. The merchant uploads them through the
 * file-transfer app's direct-to-S3 upload (a storedFile of purpose 'product' in the shop's own
 * space) and sets how many times a purchase may download each; the buyer finds them on their
 * orders, each download a short-lived link counted against that limit. Shapes shared by the
 * route table, the handlers and the web app.
 */
import * as z from '../zod';
import { productStockGradeIdSchema } from './merchant';
import { declaredFileSchema, entityIdSchema, fileSchema } from './transfers';

/** Downloads of each file one purchase gets unless its merchant says otherwise. */
export const DEFAULT_DOWNLOADS_PER_PURCHASE = 5;
export const MIN_DOWNLOADS_PER_PURCHASE = 1;
export const MAX_DOWNLOADS_PER_PURCHASE = 100;
/** Files one grade may deliver. */
export const MAX_FILES_PER_GRADE = 20;

export const gradeFileParamsSchema = z.strictObject({ productStockGradeId: productStockGradeIdSchema, fileId: entityIdSchema });

export const createGradeFilesBodySchema = z.strictObject({
  files: z
    .array(declaredFileSchema)
    .check(
      z.minLength(1, 'Add at least one file'),
      z.maxLength(MAX_FILES_PER_GRADE, `A grade delivers at most ${MAX_FILES_PER_GRADE} files`),
    ),
});

export const downloadsPerPurchaseBodySchema = z.strictObject({
  downloadsPerPurchase: z
    .number()
    .check(
      z.int('Downloads per purchase is a whole number'),
      z.minimum(MIN_DOWNLOADS_PER_PURCHASE, `Allow at least ${MIN_DOWNLOADS_PER_PURCHASE} download per purchase`),
      z.maximum(MAX_DOWNLOADS_PER_PURCHASE, `Allow at most ${MAX_DOWNLOADS_PER_PURCHASE} downloads per purchase`),
    ),
});

/** A grade's files as its merchant manages them (pending ones included, oldest first) and the downloads each purchase gets. */
export const gradeFilesSchema = z.strictObject({ downloadsPerPurchase: z.int(), items: z.array(fileSchema) });
export type GradeFilesView = z.infer<typeof gradeFilesSchema>;

/**
 * Whether a buyer may download a file of their order now. 'available': yes; 'used-up': the
 * purchase's downloads of it are spent; 'refunded': the order, or the line of its grade, was
 * refunded; 'subscription-ended': its grade is a subscription that no longer gives access.
 */
export const DOWNLOAD_ACCESS = ['available', 'used-up', 'refunded', 'subscription-ended'] as const;
export type DownloadAccess = (typeof DOWNLOAD_ACCESS)[number];

/** A file an order delivers, as its buyer sees it. */
export const orderDownloadSchema = z.strictObject({
  fileId: z.string(),
  productStockGradeId: z.string(),
  name: z.string(),
  size: z.number(),
  type: z.string(),
  downloadLimit: z.int(),
  downloadsLeft: z.int(),
  access: z.enum(DOWNLOAD_ACCESS),
});
export type OrderDownloadView = z.infer<typeof orderDownloadSchema>;

/** A download's link: a presigned GET that saves the file under its name, good for five minutes, and the downloads left after it. */
export const orderDownloadLinkSchema = z.strictObject({
  url: z.string(),
  name: z.string(),
  size: z.number(),
  downloadsLeft: z.int(),
  expiresAt: z.string(),
});
