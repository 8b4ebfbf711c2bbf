import * as z from '../zod';
import { RESERVED_PATH_SEGMENTS } from '../constants';
import { cursorQueryShape } from './common';

/** Words no account may take as its username, besides the reserved path segments. */
export const RESERVED_USERNAMES = [
  ...RESERVED_PATH_SEGMENTS,
  'admin',
  'administrator',
  'api',
  'about',
  'help',
  'support',
  'login',
  'logout',
  'signup',
  'search',
  'topics',
  'topic',
  'growing',
  'active',
  'notifications',
  'transfer',
  'root',
  'system',
  'toppubs',
  'null',
  'undefined',
] as const;

/**
 * User ids are random UUIDs, written in lower case; the table's keys ignore letter case, so
 * 'BFA4…' and 'bfa4…' name the same user. Every id that reaches a comparison or is stored goes
 * through this one function (route schemas below, and the entities' user-id attributes), so the
 * same user never appears as two different ids.
 */
export const normaliseUserId = (id: string) => id.trim().toLowerCase();

export const userIdSchema = z.pipe(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)), z.transform(normaliseUserId));

export const usernameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(3, 'Usernames have at least 3 characters'),
    z.maxLength(30, 'Usernames have at most 30 characters'),
    z.regex(/^[A-Za-z0-9_]+$/, 'Use letters, digits and underscores only'),
  );

export const emailSchema = z.pipe(
  z.email({ message: 'Enter a valid email address' }).check(z.maxLength(254)),
  z.transform((email) => email.trim()),
);

/** The signed-in user as every app's top bar shows it (name, image, account link, unseen counts), plus its id. */
export const currentUserSchema = z.strictObject({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
  pennameAccountUrl: z.string(),
  numUnseenNotifications: z.number(),
  ssoAppNumUnseenNotifications: z.number(),
  isSuperUser: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const sendLoginEmailQuerySchema = z.strictObject({ email: emailSchema });
/** What the page may send along with a login link request, serialised: it is stored with the link. */
export const MAX_CONTEXT_DATA_BYTES = 4 * 1024;

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export const sendLoginEmailBodySchema = z.optional(
  z.strictObject({
    contextData: z.optional(
      z
        .record(z.string(), z.unknown())
        .check(z.refine((data) => jsonBytes(data) <= MAX_CONTEXT_DATA_BYTES, 'contextData is at most 4 KB as JSON')),
    ),
  }),
);

export const confirmLoginEmailBodySchema = z.strictObject({
  token: z.string().check(z.minLength(20, 'This login link is incomplete'), z.maxLength(200, 'This login link is not valid')),
});

export const usernameIsFreeQuerySchema = z.strictObject({ username: z.string().check(z.maxLength(100)) });
export const usernameIsFreeResponseSchema = z.strictObject({
  username: z.string(),
  isFree: z.boolean(),
  /** Why it is not free: taken, reserved, or not a valid username. */
  reason: z.nullable(z.string()),
});

const isoString = z.string();
const httpUrl = z.url({ protocol: /^https?$/, message: 'Must be an http(s) URL' }).check(z.maxLength(2048));

/** What anyone may see of a user; never the email itself, only whether there is one and whether it is verified. */
export const publicUserSchema = z.strictObject({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  createdAt: isoString,
  imageUrl: z.nullable(z.string()),
  hasOwnImageUrl: z.boolean(),
  hasEmail: z.boolean(),
  hasValidEmail: z.boolean(),
  isSuperUser: z.boolean(),
  websiteUrl: z.nullable(z.string()),
  lastLoginAt: isoString,
  /** Kept exact with each follow (stories); 0 on accounts older than follows. */
  followerCount: z.int().check(z.minimum(0)),
  followingCount: z.int().check(z.minimum(0)),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The owner's (or an app's) view: the public fields plus the email. */
export const fullUserSchema = z.extend(publicUserSchema, { email: z.nullable(z.string()), emailVerified: z.boolean() });

export const userSettingsSchema = z.strictObject({
  theme: z.optional(z.enum(['system', 'light', 'dark'])),
  defaultBoard: z.optional(z.enum(['followers', 'growth'])),
  activeOnlyByDefault: z.optional(z.boolean()),
  timezone: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const emailPreferencesSchema = z.strictObject({
  productUpdates: z.boolean(),
  weeklyDigest: z.boolean(),
  notificationEmails: z.boolean(),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;
export const DEFAULT_EMAIL_PREFERENCES: EmailPreferences = { productUpdates: true, weeklyDigest: true, notificationEmails: true };

export const profileBodySchema = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.maxLength(80, 'Names have at most 80 characters'))),
  username: z.optional(usernameSchema),
  websiteUrl: z.optional(z.nullable(httpUrl)),
  imageUrl: z.optional(z.nullable(httpUrl)),
});

export const REPORT_OBJECT_TYPES = ['user', 'story', 'publication', 'transfer', 'file', 'comment'] as const;

/** What a moderator did about an object's reports: nothing was wrong, or something was done. */
export const REPORT_RESOLUTIONS = ['dismissed', 'actioned'] as const;

export const reportBodySchema = z.pipe(
  z.strictObject({
    objectType: z.enum(REPORT_OBJECT_TYPES),
    objectId: z.string().check(z.minLength(1), z.maxLength(200)),
    reason: z.enum(['spam', 'abuse', 'impersonation', 'copyright', 'other']),
    details: z.optional(z.string().check(z.trim(), z.maxLength(1000))),
  }),
  // A reported user is a user id (case-insensitive); other objects' ids keep their case.
  z.transform((report) => (report.objectType === 'user' ? { ...report, objectId: normaliseUserId(report.objectId) } : report)),
);

export const openReportSchema = z.strictObject({
  objectType: z.enum(REPORT_OBJECT_TYPES),
  objectId: z.string(),
  reason: z.enum(['spam', 'abuse', 'impersonation', 'copyright', 'other']),
  details: z.string(),
  /** Who reported it; null when their account has since been deleted. */
  reporter: z.nullable(z.strictObject({ userId: z.string(), username: z.string() })),
  createdAt: isoString,
  updatedAt: isoString,
});

export const openReportsQuerySchema = z.strictObject({ ...cursorQueryShape });

export const openReportsSchema = z.strictObject({
  items: z.array(openReportSchema),
  nextCursor: z.nullable(z.string()),
});

export const resolveReportsParamsSchema = z.strictObject({
  objectType: z.enum(REPORT_OBJECT_TYPES, { message: `Use one of ${REPORT_OBJECT_TYPES.join(', ')}` }),
  objectId: z.string().check(z.minLength(1), z.maxLength(200)),
  resolution: z.enum(REPORT_RESOLUTIONS, { message: "Use 'dismissed' or 'actioned'" }),
});

export const sessionSummarySchema = z.strictObject({
  sessionId: z.string(),
  createdAt: isoString,
  lastUsedAt: isoString,
  userAgent: z.string(),
  isCurrent: z.boolean(),
});

export const accountOverviewSchema = z.strictObject({
  user: fullUserSchema,
  settings: userSettingsSchema,
  emailPreferences: emailPreferencesSchema,
  blockedUsers: z.array(publicUserSchema),
  connectedAccounts: z.array(
    z.strictObject({ provider: z.enum(['google', 'twitter']), displayName: z.nullable(z.string()), connectedAt: z.string() }),
  ),
});

export const userIdParamsSchema = z.strictObject({ userId: userIdSchema });
/** A user id ('me' for oneself where a route allows it; a username where a route also takes one: both ignore case). */
export const idParamsSchema = z.strictObject({ id: userIdSchema });
