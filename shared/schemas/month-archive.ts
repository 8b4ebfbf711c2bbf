import * as z from '../zod';
import { seoSchema } from './common';
import { topicFilterSchema } from './ranking';

/** 'YYYY-MM' (UTC): the unit of the archive. */
export const archiveMonthSchema = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Months are written YYYY-MM'));

/** /archive/{year}/{month}: a four-digit year and a two-digit month, as the page's address has them. */
export const archiveMonthParamsSchema = z.strictObject({
  year: z.string().check(z.regex(/^\d{4}$/, 'The year is four digits, as 2025')),
  month: z.string().check(z.regex(/^(0[1-9]|1[0-2])$/, 'The month is two digits from 01 to 12, as 05')),
});

/** A topic filter, lower-cased as the boards' filter is (?topic=UX asks for ux). */
export const archiveQuerySchema = z.strictObject({
  topic: z.optional(topicFilterSchema),
});

/** One publication's place on one board of a month. */
export const archiveRowSchema = z.strictObject({
  rank: z.number(),
  slug: z.string(),
  name: z.string(),
  url: z.string(),
  imageUrl: z.nullable(z.string()),
  /** Followers on the month's last observed day; null for a feed that counts none. */
  followers: z.nullable(z.number()),
  /** Followers gained over the month (from the day before it began, or from its first count in it); null when not known. */
  gained: z.nullable(z.number()),
  /** `gained` as a percentage of the starting count; null when it started from zero or is not known. */
  growthPct: z.nullable(z.number()),
  /** Days of the month it was on the active boards (a post within the last 30 days). */
  activeDays: z.number(),
});
export type ArchiveRow = z.infer<typeof archiveRowSchema>;

export const archiveBoardsSchema = z.strictObject({
  /** Most followed at the month's end. */
  followers: z.array(archiveRowSchema),
  /** Most followers gained over the month; only publications that gained some. */
  growth: z.array(archiveRowSchema),
  /** Most days on the active boards in the month, more followers first among equals. */
  activity: z.array(archiveRowSchema),
});
export type ArchiveBoards = z.infer<typeof archiveBoardsSchema>;

/** A topic of the month, for the topic picker. */
export const archiveTopicSchema = z.strictObject({ tag: z.string(), name: z.string(), publicationCount: z.number() });
export type ArchiveTopic = z.infer<typeof archiveTopicSchema>;

export const monthArchiveSchema = z.strictObject({
  month: z.string(),
  /** The topic shown, or null for every publication. */
  topic: z.nullable(archiveTopicSchema),
  /** Publications on the boards that month (in the topic, when one is shown). */
  publicationCount: z.number(),
  boards: archiveBoardsSchema,
  /** Every topic of the month, the largest first. */
  topics: z.array(archiveTopicSchema),
  /** When the month was archived. */
  archivedAt: z.string(),
  seo: seoSchema,
});
export type MonthArchive = z.infer<typeof monthArchiveSchema>;

export const archivedMonthsSchema = z.strictObject({
  /** Newest first. */
  months: z.array(z.strictObject({ month: z.string(), publicationCount: z.number(), topicCount: z.number() })),
});
export type ArchivedMonths = z.infer<typeof archivedMonthsSchema>;
