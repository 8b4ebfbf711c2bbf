import * as z from '../zod';
import { MAX_FILE_BYTES } from '../transfers/upload-sizing';
import { MAX_FILE_NAME_LENGTH } from '../transfers/file-rules';

/** Ids we hand out: 22 characters of base64url (128 random bits). */
export const entityIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid id'));

export const fileIdParamsSchema = z.strictObject({ id: entityIdSchema });

/** 'transfer': a file of a transfer's package. 'image': an avatar or product image, readable by anyone. */
export const FILE_PURPOSES = ['transfer', 'image'] as const;
/** 'pending': created, bytes not yet checked; 'ready': checked, size, type and checksum recorded. */
export const FILE_STATUSES = ['pending', 'ready'] as const;

export const fileSchema = z.object({
  id: z.string(),
  purpose: z.enum(FILE_PURPOSES),
  transferId: z.nullable(z.string()),
  name: z.string(),
  /** Bytes, as declared at creation and checked at finalize. */
  size: z.number(),
  type: z.string(),
  status: z.enum(FILE_STATUSES),
  uploadMethod: z.enum(['post', 'multipart', 'server']),
  /** The sender's file's last-modified time (ms), which lets an upload resume on the same file. */
  lastModified: z.nullable(z.number()),
  /** S3's ETag of the stored bytes: their MD5 for a single upload, the MD5 of the parts' MD5s and the part count ("…-N") for a multipart one. */
  checksum: z.nullable(z.string()),
  createdAt: z.string(),
  readyAt: z.nullable(z.string()),
});
export type FileView = z.infer<typeof fileSchema>;

const declaredFileShape = {
  name: z.string().check(z.minLength(1, 'A file needs a name'), z.maxLength(1_024)),
  size: z
    .number()
    .check(
      z.int('Size must be a whole number of bytes'),
      z.minimum(0, 'Size cannot be negative'),
      z.maximum(MAX_FILE_BYTES, 'This file is larger than any upload allows'),
    ),
  type: z._default(z.string().check(z.maxLength(255)), ''),
  lastModified: z.optional(z.number().check(z.int(), z.minimum(0))),
};

export const createBRecordBodySchema = z.strictObject({ transferId: entityIdSchema, ...declaredFileShape });
export const createFilesBodySchema = z.strictObject({
  transferId: entityIdSchema,
  files: z
    .array(z.strictObject(declaredFileShape))
    .check(z.minLength(1, 'Add at least one file'), z.maxLength(50, 'At most 50 files per call')),
});
export const imageFileBodySchema = z.strictObject({
  name: declaredFileShape.name,
  size: declaredFileShape.size,
  type: z.string().check(z.maxLength(255)),
});

/** One presigned POST: the form fields pin the key, the type and the size range. */
export const postUploadSchema = z.object({
  method: z.literal('post'),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});
/** A multipart upload: parts are signed on demand (sign-parts) and listed to resume (list-parts). */
export const multipartUploadSchema = z.object({
  method: z.literal('multipart'),
  partSize: z.number(),
  partCount: z.number(),
});
export const uploadTargetSchema = z.discriminatedUnion('method', [postUploadSchema, multipartUploadSchema]);
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

export const uploadingFileSchema = z.object({ file: fileSchema, upload: uploadTargetSchema });
export type UploadingFile = z.infer<typeof uploadingFileSchema>;
export const uploadingFilesSchema = z.object({ files: z.array(uploadingFileSchema) });
export const fileAnswerSchema = z.object({ file: fileSchema });

export const signPartsBodySchema = z.strictObject({
  partNumbers: z
    .array(z.number().check(z.int('Part numbers are whole numbers'), z.minimum(1, 'Parts start at 1'), z.maximum(10_000)))
    .check(z.minLength(1, 'Name at least one part'), z.maxLength(100, 'At most 100 parts per call')),
});
export const signedPartsSchema = z.object({
  parts: z.array(z.object({ partNumber: z.number(), url: z.string() })),
  expiresAt: z.string(),
});
export const uploadedPartsSchema = z.object({
  parts: z.array(z.object({ partNumber: z.number(), size: z.number(), etag: z.string() })),
});

export const downloadQuerySchema = z.strictObject({
  /** 'inline' for an image preview in the page; a download otherwise. */
  disposition: z._default(z.enum(['attachment', 'inline'], { message: "Use 'attachment' or 'inline'" }), 'attachment'),
});
export const downloadLinkSchema = z.object({ url: z.string(), name: z.string(), size: z.number(), expiresAt: z.string() });

/** Images by value: base64 (with or without a data: prefix), decoded size capped. */
export const base64ImageBodySchema = z.strictObject({
  name: z.optional(z.string().check(z.maxLength(MAX_FILE_NAME_LENGTH))),
  dataBase64: z.string().check(z.minLength(1, 'Send the image as base64'), z.maxLength(6_000_000, 'This image is too large')),
});
export const imageUrlBodySchema = z.strictObject({
  url: z.string().check(z.minLength(1, 'Give the image url'), z.maxLength(4_096)),
});
/** An image stored by the server itself (by base64 or url): ready at once, with where to read it. */
export const storedImageSchema = z.object({ file: fileSchema, url: z.string() });
