/**
 * File requests (functions/transfers/, shared/routes/file-requests.ts): a signed-in user asks
 * anyone with a link to upload files to them; each upload becomes a transfer of theirs.
 */
import * as z from '../zod';
import {
  MAX_REQUEST_MESSAGE_LENGTH,
  MAX_REQUEST_TITLE_LENGTH,
  MAX_UPLOADER_NAME_LENGTH,
  MAX_UPLOADER_NOTE_LENGTH,
} from '../transfers/file-requests';
import { PLAN_IDS } from '../transfers/plans';
import { cursorQueryShape } from './common';
import { entityIdSchema, fileSchema, transferPersonSchema } from './transfers';

export const FILE_REQUEST_STATUSES = ['open', 'closed'] as const;

export const fileRequestIdParamsSchema = z.strictObject({ id: entityIdSchema });
export const requestUploadFileParamsSchema = z.strictObject({ id: entityIdSchema, fileId: entityIdSchema });

export const createFileRequestBodySchema = z.strictObject({
  title: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Give the request a title'),
      z.maxLength(MAX_REQUEST_TITLE_LENGTH, 'Keep the title under 200 characters'),
    ),
  message: z._default(z.string().check(z.maxLength(MAX_REQUEST_MESSAGE_LENGTH, 'Keep the message under 2,000 characters')), ''),
  /** The plan's default when absent; at most the plan's longest. */
  expiresInDays: z.optional(z.number().check(z.int('Whole days only'), z.minimum(1, 'A request lasts at least a day'))),
  /** Fewer uploads than the plan allows; the plan's number when absent. */
  maxUploads: z.optional(z.number().check(z.int('A whole number of uploads'), z.minimum(1, 'Allow at least one upload'))),
  /** Fewer bytes across every upload than the plan allows; the plan's when absent. */
  maxBytes: z.optional(z.number().check(z.int('A whole number of bytes'), z.minimum(1, 'Allow at least one byte'))),
});

/** A request as its owner sees it. */
export const fileRequestSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  status: z.enum(FILE_REQUEST_STATUSES),
  planId: z.enum(PLAN_IDS),
  createdAt: z.string(),
  closedAt: z.nullable(z.string()),
  expiresAt: z.string(),
  expired: z.boolean(),
  maxUploads: z.number(),
  maxBytes: z.number(),
  maxUploadBytes: z.number(),
  /** Uploads started through the link, and those the uploader finished. */
  uploadCount: z.number(),
  finishedCount: z.number(),
  /** Bytes of the files uploaders have added so far (pending ones as declared). */
  totalBytes: z.number(),
  /** The path of the public page the link opens (on the web app's origin). */
  path: z.string(),
});
export type FileRequestView = z.infer<typeof fileRequestSchema>;

export const fileRequestListSchema = z.strictObject({ requests: z.array(fileRequestSchema), cursor: z.nullable(z.string()) });
export const fileRequestListQuerySchema = z.strictObject({ ...cursorQueryShape });

/** A request as anyone with its link sees it: nothing of its uploads. */
export const publicFileRequestSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  requester: transferPersonSchema,
  expiresAt: z.string(),
  /** Bytes one upload may hold, and what is left across the request. */
  maxUploadBytes: z.number(),
  remainingBytes: z.number(),
});
export type PublicFileRequest = z.infer<typeof publicFileRequestSchema>;

export const startRequestUploadBodySchema = z.strictObject({
  name: z.string().check(
    z.trim(),
    z.minLength(1, 'Enter your name'),
    z.maxLength(MAX_UPLOADER_NAME_LENGTH, 'Keep your name under 100 characters'),
    // It goes into the requester's mail subject and bell: one line of text.
    z.regex(/^[^\p{Cc}]*$/u, 'Write your name on one line'),
  ),
  note: z._default(z.string().check(z.trim(), z.maxLength(MAX_UPLOADER_NOTE_LENGTH, 'Keep the note under 1,000 characters')), ''),
});

export const REQUEST_UPLOAD_STATUSES = ['uploading', 'finished'] as const;

/** One upload as its uploader sees it: their own files, and nothing else of the request. */
export const requestUploadSchema = z.strictObject({
  id: z.string(),
  requestId: z.string(),
  requestTitle: z.string(),
  uploaderName: z.string(),
  note: z.string(),
  status: z.enum(REQUEST_UPLOAD_STATUSES),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
  /** The upload grant's end: after it, this upload can no longer be reached from this browser. */
  grantExpiresAt: z.string(),
  maxUploadBytes: z.number(),
  files: z.array(fileSchema),
});
export type RequestUploadView = z.infer<typeof requestUploadSchema>;
