/**
 * The transfer app's shapes (functions/transfers/): the files of transfers and the images anyone
 * may upload (/api/i/file), transfers and their packages (/api/i/transfer), and the app's screens
 * (/api/i/ourTransfers).
 */
import * as z from '../zod';
import { cursorQueryShape, seoSchema } from './common';
import { MAX_FILE_BYTES } from '../transfers/upload-sizing';
import { cleanFileName, MAX_FILE_NAME_LENGTH, UNUSABLE_FILE_NAME } from '../transfers/file-rules';
import { PLAN_IDS } from '../transfers/plans';
import { PREVIEW_KINDS } from '../transfers/previews';
import { MAX_TRANSFER_PASSWORD_LENGTH, MIN_TRANSFER_PASSWORD_LENGTH } from '../transfers/passwords';

// ---------------------------------------------------------------------------------------------
// Files and images

/** Ids we hand out: 22 characters of base64url (128 random bits). */
export const entityIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'Not a valid id'));

export const fileIdParamsSchema = z.strictObject({ id: entityIdSchema });

/**
 * 'transfer': a file of a transfer's package. 'image': an avatar or product image, readable by
 * anyone. 'product': a file a shop's grade delivers to its buyers (shared/schemas/digital-products.ts).
 */
export const FILE_PURPOSES = ['transfer', 'image', 'product'] as const;
/** 'pending': created, bytes not yet checked; 'ready': checked, size, type and checksum recorded. */
export const FILE_STATUSES = ['pending', 'ready'] as const;

export const fileSchema = z.strictObject({
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

/** A name as the browser gives it; the server stores it cleaned (cleanFileName), and refuses one of which nothing is left. */
const fileNameSchema = z
  .string()
  .check(
    z.minLength(1, 'A file needs a name'),
    z.maxLength(1_024),
    z.refine((name) => name === '' || cleanFileName(name) !== null, UNUSABLE_FILE_NAME),
  );

const declaredFileShape = {
  name: fileNameSchema,
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
/** A file as the browser declares it before sending its bytes. */
export const declaredFileSchema = z.strictObject(declaredFileShape);
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
export const postUploadSchema = z.strictObject({
  method: z.literal('post'),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});
/** A multipart upload: parts are signed on demand (sign-parts) and listed to resume (list-parts). */
export const multipartUploadSchema = z.strictObject({
  method: z.literal('multipart'),
  partSize: z.number(),
  partCount: z.number(),
});
export const uploadTargetSchema = z.discriminatedUnion('method', [postUploadSchema, multipartUploadSchema]);
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

export const uploadingFileSchema = z.strictObject({ file: fileSchema, upload: uploadTargetSchema });
export type UploadingFile = z.infer<typeof uploadingFileSchema>;
export const uploadingFilesSchema = z.strictObject({ files: z.array(uploadingFileSchema) });
export const fileAnswerSchema = z.strictObject({ file: fileSchema });

export const signPartsBodySchema = z.strictObject({
  partNumbers: z
    .array(z.number().check(z.int('Part numbers are whole numbers'), z.minimum(1, 'Parts start at 1'), z.maximum(10_000)))
    .check(z.minLength(1, 'Name at least one part'), z.maxLength(100, 'At most 100 parts per call')),
});
export const signedPartsSchema = z.strictObject({
  parts: z.array(z.strictObject({ partNumber: z.number(), url: z.string() })),
  expiresAt: z.string(),
});
export const uploadedPartsSchema = z.strictObject({
  parts: z.array(z.strictObject({ partNumber: z.number(), size: z.number(), etag: z.string() })),
});

export const downloadQuerySchema = z.strictObject({
  /** 'inline' for an image preview in the page; a download otherwise. */
  disposition: z._default(z.enum(['attachment', 'inline'], { message: "Use 'attachment' or 'inline'" }), 'attachment'),
});
export const downloadLinkSchema = z.strictObject({ url: z.string(), name: z.string(), size: z.number(), expiresAt: z.string() });

/**
 * A preview link: inline for images, PDFs, audio and video (their own type), text/plain and
 * attachment for text (read with a Range GET of its first 64 KB).
 */
export const previewLinkSchema = z.strictObject({
  url: z.string(),
  name: z.string(),
  size: z.number(),
  kind: z.enum(PREVIEW_KINDS),
  /** The Content-Type the link answers with. */
  contentType: z.string(),
  /** The Content-Disposition type the link answers with. */
  disposition: z.enum(['inline', 'attachment']),
  expiresAt: z.string(),
});

/** Images by value: base64 (with or without a data: prefix), decoded size capped. */
export const base64ImageBodySchema = z.strictObject({
  name: z.optional(z.string().check(z.maxLength(MAX_FILE_NAME_LENGTH))),
  dataBase64: z.string().check(z.minLength(1, 'Send the image as base64'), z.maxLength(6_000_000, 'This image is too large')),
});
export const imageUrlBodySchema = z.strictObject({
  url: z.string().check(z.minLength(1, 'Give the image url'), z.maxLength(4_096)),
});
/** An image stored by the server itself (by base64 or url): ready at once, with where to read it. */
export const storedImageSchema = z.strictObject({ file: fileSchema, url: z.string() });

// ---------------------------------------------------------------------------------------------
// Transfers

export const transferIdParamsSchema = z.strictObject({ id: entityIdSchema });

/** 'draft': files and recipients may still be added; 'sent': finalized, the recipients were told. */
export const TRANSFER_STATUSES = ['draft', 'sent'] as const;

/**
 * How a transfer reaches people: 'email' to its recipients; 'link', a link the sender shares as
 * they like (recipients may still be emailed too), which opens the package to anyone holding it.
 */
export const TRANSFER_DELIVERIES = ['email', 'link'] as const;
export type TransferDelivery = (typeof TRANSFER_DELIVERIES)[number];

/** The most downloads a sender may allow a transfer. */
export const MAX_DOWNLOAD_LIMIT = 1_000;

export const transferPersonSchema = z.strictObject({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
});

export const planLimitsSchema = z.strictObject({
  planId: z.enum(PLAN_IDS),
  maxExpiryDays: z.number(),
  defaultExpiryDays: z.number(),
  maxTransferBytes: z.number(),
  maxRecipients: z.number(),
});

export const transferSummarySchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  owner: transferPersonSchema,
  createdAt: z.string(),
  finalizedAt: z.nullable(z.string()),
  expiresAt: z.string(),
  expired: z.boolean(),
  fileCount: z.number(),
  /** Bytes of the files added so far (pending ones as declared). */
  totalBytes: z.number(),
  recipientCount: z.number(),
  /** Milliseconds from the send click to the finalized transfer, as the sender's browser measured them. */
  sendTimingMs: z.nullable(z.number()),
  /** Set on a transfer that someone uploaded through one of the owner's file requests: who, and their note. */
  receivedThrough: z.optional(
    z.strictObject({ requestId: z.string(), uploaderName: z.string(), uploaderNote: z.string() }),
  ),
  delivery: z.enum(TRANSFER_DELIVERIES),
  /** Downloads the package serves in all (null: no limit), and how many it has served. */
  downloadLimit: z.nullable(z.number()),
  downloadCount: z.number(),
  /** Previews opened by anyone but the sender (views, not downloads). */
  previewCount: z.number(),
  /** Present (true) when opening the package takes a password; the password itself is never answered. */
  passwordProtected: z.optional(z.literal(true)),
});
export type TransferSummary = z.infer<typeof transferSummarySchema>;

export const memberSchema = z.strictObject({
  email: z.string(),
  /** Set once the recipient has an account: at once for an existing user, else when they open the link. */
  userId: z.nullable(z.string()),
  name: z.nullable(z.string()),
  addedAt: z.string(),
  notifiedAt: z.nullable(z.string()),
  firstDownloadAt: z.nullable(z.string()),
  /** What they downloaded, oldest first: a file id, or 'all' for the zip. */
  downloads: z.array(z.strictObject({ fileId: z.string(), at: z.string() })),
});
export type MemberView = z.infer<typeof memberSchema>;

/** A member's vote on one file. */
export const VOTES = ['like', 'dislike'] as const;
export type Vote = (typeof VOTES)[number];
/**
 * The `{status}` of the like and dislike routes: 'on' casts that vote (replacing the other
 * one), 'off' withdraws it. Repeating either changes nothing.
 */
export const VOTE_STATUSES = ['on', 'off'] as const;

export const packageFileSchema = z.strictObject({
  ...fileSchema.shape,
  likes: z.number(),
  dislikes: z.number(),
  myVote: z.nullable(z.enum(VOTES)),
});
export type PackageFile = z.infer<typeof packageFileSchema>;

export const transferViewSchema = z.strictObject({
  transfer: transferSummarySchema,
  files: z.array(packageFileSchema),
  members: z.array(memberSchema),
  limits: planLimitsSchema,
});
export type TransferView = z.infer<typeof transferViewSchema>;

export const packageViewSchema = z.strictObject({
  transfer: transferSummarySchema,
  files: z.array(packageFileSchema),
  /** Whether the caller is the sender (who sees their own package as recipients do). */
  isOwner: z.boolean(),
});
export type PackageView = z.infer<typeof packageViewSchema>;

/** A transfer's password as a sender sets it (the server keeps only a slow hash of it). */
export const transferPasswordSchema = z.string().check(
  z.minLength(MIN_TRANSFER_PASSWORD_LENGTH, `Use at least ${MIN_TRANSFER_PASSWORD_LENGTH} characters`),
  z.maxLength(MAX_TRANSFER_PASSWORD_LENGTH, `Keep the password under ${MAX_TRANSFER_PASSWORD_LENGTH} characters`),
);

/** Downloads a package may serve in all. */
const downloadLimitSchema = z
  .number()
  .check(
    z.int('Whole downloads only'),
    z.minimum(1, 'Allow at least one download'),
    z.maximum(MAX_DOWNLOAD_LIMIT, `Allow at most ${MAX_DOWNLOAD_LIMIT} downloads`),
  );

export const createTransferBodySchema = z.strictObject({
  /** Pro only: recipients must enter it to open the package. */
  password: z.optional(transferPasswordSchema),
  title: z._default(z.string().check(z.maxLength(200, 'Keep the title under 200 characters')), ''),
  message: z._default(z.string().check(z.maxLength(5_000, 'Keep the message under 5,000 characters')), ''),
  expiresInDays: z.optional(z.number().check(z.int('Whole days only'), z.minimum(1, 'A transfer lasts at least a day'))),
  delivery: z._default(z.enum(TRANSFER_DELIVERIES, { message: "Use 'email' or 'link'" }), 'email'),
  downloadLimit: z.optional(downloadLimitSchema),
});

/** A draft's delivery and download limit, chosen again (a retry after the sender changed them). */
export const setTransferDeliveryBodySchema = z.strictObject({
  delivery: z.enum(TRANSFER_DELIVERIES, { message: "Use 'email' or 'link'" }),
  /** null: no limit. */
  downloadLimit: z.nullable(downloadLimitSchema),
});

/** A sent transfer; for a link transfer, its link, answered this once (only its hash is kept). */
export const finalizeAnswerSchema = z.strictObject({
  ...transferSummarySchema.shape,
  link: z.nullable(z.string()),
});
export type FinalizeAnswer = z.infer<typeof finalizeAnswerSchema>;

/** The key of a link transfer's link (missing or wrong: the transfer is not found). */
export const openLinkBodySchema = z.strictObject({ key: z._default(z.string().check(z.maxLength(200)), '') });

/** What opening a link transfer's link gives: the package, and a grant for it alone (no session, no account). */
export const openLinkAnswerSchema = z.union([
  z.strictObject({ ...packageViewSchema.shape, grant: z.strictObject({ expiresAt: z.string() }) }),
  /** A password-protected package: the grant is given, the package waits for the password (unlockTransferPackage). */
  z.strictObject({ passwordRequired: z.literal(true), transferId: z.string(), grant: z.strictObject({ expiresAt: z.string() }) }),
]);
export type OpenLinkAnswer = z.infer<typeof openLinkAnswerSchema>;

export const downloadLogEntrySchema = z.strictObject({
  at: z.string(),
  /** A file id, or 'all' for the zip of every file. */
  fileId: z.string(),
  /** The file's name, or 'All files' for the zip. */
  fileName: z.string(),
  /** 'anonymous': someone with the link, not signed in; else a signed-in user or an emailed recipient. */
  downloader: z.enum(['anonymous', 'user', 'recipient']),
  /** Their name (or username); null for anyone anonymous, or a former user. */
  name: z.nullable(z.string()),
  userId: z.nullable(z.string()),
});
export type DownloadLogEntry = z.infer<typeof downloadLogEntrySchema>;
export const downloadLogSchema = z.strictObject({ downloads: z.array(downloadLogEntrySchema), cursor: z.nullable(z.string()) });

export const addRecipientBodySchema = z.strictObject({
  email: z.string().check(z.maxLength(254, 'That email address is too long'), z.email('That is not an email address')),
});
export const memberAnswerSchema = z.strictObject({ member: memberSchema });
export const membersSchema = z.strictObject({ members: z.array(memberSchema) });

export const finalizeTimingBodySchema = z.strictObject({
  elapsedMs: z.number().check(z.int(), z.minimum(0, 'Time cannot be negative'), z.maximum(7 * 24 * 3_600_000)),
});

export const voteParamsShape = { id: entityIdSchema, status: z.enum(VOTE_STATUSES, { message: "Use 'on' or 'off'" }) };
export const likeParamsSchema = z.strictObject({ ...voteParamsShape, relationId: entityIdSchema });
export const dislikeParamsSchema = z.strictObject({ ...voteParamsShape, recordId: entityIdSchema });
export const voteAnswerSchema = z.strictObject({ file: packageFileSchema });
export const myVotesSchema = z.strictObject({ votes: z.record(z.string(), z.enum(VOTES)) });

export const transferListQuerySchema = z.strictObject({ ...cursorQueryShape });
export const transferListSchema = z.strictObject({
  transfers: z.array(transferSummarySchema),
  cursor: z.nullable(z.string()),
});

export const contactsQuerySchema = z.strictObject({
  /** Start of an address or name, for the recipient field's autocomplete. */
  q: z._default(z.string().check(z.maxLength(254)), ''),
});
export const contactSchema = z.strictObject({ email: z.string(), name: z.nullable(z.string()), lastSentAt: z.string() });
export const contactsSchema = z.strictObject({ contacts: z.array(contactSchema) });

export const acceptInviteBodySchema = z.strictObject({ token: z.string().check(z.maxLength(200)) });

/**
 * What a spent emailed link gives: the package, and a grant for it alone (no session). The
 * grant says whose address it is, until when, and whether an account was made for that address
 * now (it had none), so the page can tell the recipient.
 */
const packageGrantSchema = z.strictObject({ email: z.string(), expiresAt: z.string(), accountCreated: z.boolean() });
export const acceptInviteAnswerSchema = z.union([
  z.strictObject({ ...packageViewSchema.shape, grant: packageGrantSchema }),
  /** A password-protected package: the grant is given, the package waits for the password (unlockTransferPackage). */
  z.strictObject({ passwordRequired: z.literal(true), transferId: z.string(), grant: packageGrantSchema }),
]);
export type AcceptInviteAnswer = z.infer<typeof acceptInviteAnswerSchema>;

/** Sets (a string) or removes (null) the password of a draft. */
export const setTransferPasswordBodySchema = z.strictObject({ password: z.nullable(transferPasswordSchema) });

export const unlockPackageBodySchema = z.strictObject({
  password: z.string().check(z.maxLength(MAX_TRANSFER_PASSWORD_LENGTH, 'That password is too long')),
});
/** Until when this browser's unlock holds. */
export const unlockAnswerSchema = z.strictObject({ unlockedUntil: z.string() });

/** Everything the zip needs: each ready file's name, size and a short-lived download url. */
export const downloadAllSchema = z.strictObject({
  name: z.string(),
  files: z.array(z.strictObject({ id: z.string(), name: z.string(), size: z.number(), url: z.string() })),
  expiresAt: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Screens

/** The transfer home: the plan's limits for the form, and for a signed-in sender their latest transfers and an unfinished draft. */
export const transferHomeScreenSchema = z.strictObject({
  seo: seoSchema,
  limits: planLimitsSchema,
  signedIn: z.boolean(),
  sent: z.array(transferSummarySchema),
  received: z.array(transferSummarySchema),
  /** The newest draft with files still uploading, which the form offers to resume. */
  draft: z.nullable(z.strictObject({ transfer: transferSummarySchema, files: z.array(fileSchema) })),
});

export const senderProfileParamsSchema = z.strictObject({ userId: z.string().check(z.maxLength(100)) });
export const senderProfileScreenSchema = z.strictObject({
  seo: seoSchema,
  person: transferPersonSchema,
  memberSince: z.string(),
});

export const packageScreenSchema = z.strictObject({ seo: seoSchema, package: packageViewSchema });

export const sitemapSchema = z.string();
