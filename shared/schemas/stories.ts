import * as z from 'zod';

export const shareAlertSchema = z.object({ title: z.string(), text: z.string() });

/** A missing url is answered like a malformed one: the same INVALID_URL alert, not a schema error. */
export const urlCheckQuerySchema = z.object({ url: z.string().optional() });

export const urlCheckResultSchema = z.object({
  ok: z.literal(true),
  /** The url as it would be stored: lower-case host, no fragment or tracking parameters. */
  url: z.string(),
});

/** The 400 every story route answers for a url the sharing rules refuse. */
export const invalidUrlErrorSchema = z.object({
  code: z.literal('INVALID_URL'),
  message: z.literal('Invalid url'),
  alert: shareAlertSchema,
});
