import * as z from '../zod';
import { cursorQueryShape } from './common';
import { entityIdSchema, fileSchema } from './files';
import { PLAN_IDS } from '../transfers/plans';

export const transferIdParamsSchema = z.strictObject({ id: entityIdSchema });

/** 'draft': files and recipients may still be added; 'sent': finalized, the recipients were told. */
export const TRANSFER_STATUSES = ['draft', 'sent'] as const;

export const transferPersonSchema = z.object({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
});

export const planLimitsSchema = z.object({
  planId: z.enum(PLAN_IDS),
  maxExpiryDays: z.number(),
  defaultExpiryDays: z.number(),
  maxTransferBytes: z.number(),
  maxRecipients: z.number(),
});

export const transferSummarySchema = z.object({
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
});
export type TransferSummary = z.infer<typeof transferSummarySchema>;

export const memberSchema = z.object({
  email: z.string(),
  /** Set once the recipient has an account: at once for an existing user, else when they open the link. */
  userId: z.nullable(z.string()),
  name: z.nullable(z.string()),
  addedAt: z.string(),
  notifiedAt: z.nullable(z.string()),
  firstDownloadAt: z.nullable(z.string()),
  /** What they downloaded, oldest first: a file id, or 'all' for the zip. */
  downloads: z.array(z.object({ fileId: z.string(), at: z.string() })),
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

export const packageFileSchema = z.object({
  ...fileSchema.shape,
  likes: z.number(),
  dislikes: z.number(),
  myVote: z.nullable(z.enum(VOTES)),
});
export type PackageFile = z.infer<typeof packageFileSchema>;

export const transferViewSchema = z.object({
  transfer: transferSummarySchema,
  files: z.array(packageFileSchema),
  members: z.array(memberSchema),
  limits: planLimitsSchema,
});
export type TransferView = z.infer<typeof transferViewSchema>;

export const packageViewSchema = z.object({
  transfer: transferSummarySchema,
  files: z.array(packageFileSchema),
  /** Whether the caller is the sender (who sees their own package as recipients do). */
  isOwner: z.boolean(),
});
export type PackageView = z.infer<typeof packageViewSchema>;

export const createTransferBodySchema = z.strictObject({
  title: z._default(z.string().check(z.maxLength(200, 'Keep the title under 200 characters')), ''),
  message: z._default(z.string().check(z.maxLength(5_000, 'Keep the message under 5,000 characters')), ''),
  expiresInDays: z.optional(z.number().check(z.int('Whole days only'), z.minimum(1, 'A transfer lasts at least a day'))),
});

export const addRecipientBodySchema = z.strictObject({
  email: z.string().check(z.maxLength(254, 'That email address is too long'), z.email('That is not an email address')),
});
export const memberAnswerSchema = z.object({ member: memberSchema });
export const membersSchema = z.object({ members: z.array(memberSchema) });

export const finalizeTimingBodySchema = z.strictObject({
  elapsedMs: z.number().check(z.int(), z.minimum(0, 'Time cannot be negative'), z.maximum(7 * 24 * 3_600_000)),
});

export const voteParamsShape = { id: entityIdSchema, status: z.enum(VOTE_STATUSES, { message: "Use 'on' or 'off'" }) };
export const likeParamsSchema = z.strictObject({ ...voteParamsShape, relationId: entityIdSchema });
export const dislikeParamsSchema = z.strictObject({ ...voteParamsShape, recordId: entityIdSchema });
export const voteAnswerSchema = z.object({ file: packageFileSchema });
export const myVotesSchema = z.object({ votes: z.record(z.string(), z.enum(VOTES)) });

export const transferListQuerySchema = z.strictObject({ ...cursorQueryShape });
export const transferListSchema = z.object({
  transfers: z.array(transferSummarySchema),
  cursor: z.nullable(z.string()),
});

export const contactsQuerySchema = z.strictObject({
  /** Start of an address or name, for the recipient field's autocomplete. */
  q: z._default(z.string().check(z.maxLength(254)), ''),
});
export const contactSchema = z.object({ email: z.string(), name: z.nullable(z.string()), lastSentAt: z.string() });
export const contactsSchema = z.object({ contacts: z.array(contactSchema) });

export const acceptInviteBodySchema = z.strictObject({ token: z.string().check(z.maxLength(200)) });

/** Everything the zip needs: each ready file's name, size and a short-lived download url. */
export const downloadAllSchema = z.object({
  name: z.string(),
  files: z.array(z.object({ id: z.string(), name: z.string(), size: z.number(), url: z.string() })),
  expiresAt: z.string(),
});
