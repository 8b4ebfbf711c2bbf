import * as z from '../zod';
import { seoSchema } from './common';
import { packageViewSchema, planLimitsSchema, transferPersonSchema, transferSummarySchema } from './transfers';
import { fileSchema } from './files';

/** The transfer home: the plan's limits for the form, and for a signed-in sender their latest transfers and an unfinished draft. */
export const transferHomeScreenSchema = z.object({
  seo: seoSchema,
  limits: planLimitsSchema,
  signedIn: z.boolean(),
  sent: z.array(transferSummarySchema),
  received: z.array(transferSummarySchema),
  /** The newest draft with files still uploading, which the form offers to resume. */
  draft: z.nullable(z.object({ transfer: transferSummarySchema, files: z.array(fileSchema) })),
});

export const senderProfileParamsSchema = z.strictObject({ userId: z.string().check(z.maxLength(100)) });
export const senderProfileScreenSchema = z.object({ seo: seoSchema, person: transferPersonSchema, memberSince: z.string() });

export const packageScreenSchema = z.object({ seo: seoSchema, package: packageViewSchema });

export const sitemapSchema = z.string();
