import * as z from '../zod';
import { cursorQueryShape } from './common';
import { SOURCE_PLATFORMS } from './ranking';

/** A pasted address: trimmed, an http(s) URL of sensible length. The adapters say whether they read it. */
export const suggestionBodySchema = z.strictObject({
  url: z.pipe(
    z
      .string({ message: 'Paste the address of a publication' })
      .check(
        z.trim(),
        z.minLength(1, 'Paste the address of a publication'),
        z.maxLength(2048, 'That address is longer than 2,048 characters'),
      ),
    z.url({ protocol: /^https?$/, message: 'Paste a web address starting with https://' }),
  ),
});
export type SuggestionBody = z.infer<typeof suggestionBodySchema>;

/** A publication as its platform shows it, read once for a preview or a suggestion. */
export const suggestedPublicationSchema = z.strictObject({
  platform: z.enum(SOURCE_PLATFORMS),
  /** The address the collector will read, in its platform's normal form. */
  sourceUrl: z.string(),
  name: z.string(),
  /** The publication's own site. */
  url: z.string(),
  description: z.string(),
  imageUrl: z.nullable(z.string()),
  topics: z.array(z.string()),
  /** Null for a feed, which counts no followers: such a publication is ranked on activity only. */
  followers: z.nullable(z.number()),
  latestPostAt: z.nullable(z.string()),
});
export type SuggestedPublication = z.infer<typeof suggestedPublicationSchema>;

export const previewAnswerSchema = z.strictObject({
  publication: suggestedPublicationSchema,
  /** Set when the site already ranks it: its page's slug. */
  knownSlug: z.nullable(z.string()),
  /** Whether suggesting it would add it at once (its followers are above the floor). */
  wouldBeAccepted: z.boolean(),
});
export type PreviewAnswer = z.infer<typeof previewAnswerSchema>;

/** pending: waits for a superuser; accepted: collected and ranked; rejected: declined. */
export const SUGGESTION_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export const suggestionSchema = z.strictObject({
  id: z.string(),
  publication: suggestedPublicationSchema,
  status: z.enum(SUGGESTION_STATUSES),
  /** The publication's page once accepted. */
  slug: z.nullable(z.string()),
  suggestedAt: z.string(),
  decidedAt: z.nullable(z.string()),
  /** 'auto' when its followers were above the floor; a superuser's id otherwise. */
  decidedBy: z.nullable(z.string()),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

export const suggestionAnswerSchema = z.strictObject({
  suggestion: suggestionSchema,
  /**
   * Someone suggested it before (the answer is that suggestion, whatever became of it), or the
   * site already ranked it.
   */
  alreadyKnown: z.boolean(),
});
export type SuggestionAnswer = z.infer<typeof suggestionAnswerSchema>;

export const suggestionPageSchema = z.strictObject({
  items: z.array(suggestionSchema),
  nextCursor: z.nullable(z.string()),
});
export type SuggestionPage = z.infer<typeof suggestionPageSchema>;

export const suggestionListQuerySchema = z.strictObject({ ...cursorQueryShape });

export const SUGGESTION_DECISIONS = ['accept', 'reject'] as const;
export const suggestionDecisionParamsSchema = z.strictObject({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a suggestion id')),
  decision: z.enum(SUGGESTION_DECISIONS, { message: "Use 'accept' or 'reject'" }),
});

/** Addresses one import call reads: a handful, so each call stays far inside API Gateway's 29 s. */
export const IMPORT_BATCH_SIZE = 5;

export const importSourcesBodySchema = z.strictObject({
  urls: z
    .array(
      z.pipe(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(2048)),
        z.url({ protocol: /^https?$/, message: 'Must be a web address starting with https://' }),
      ),
    )
    .check(
      z.minLength(1, 'Send at least one address'),
      z.maxLength(IMPORT_BATCH_SIZE, `Send at most ${IMPORT_BATCH_SIZE} addresses a call`),
    ),
});

/** added: collected from now on; known: already collected; failed: nothing stored, `reason` says why. */
export const IMPORT_OUTCOMES = ['added', 'known', 'failed'] as const;

export const importResultSchema = z.strictObject({
  url: z.string(),
  outcome: z.enum(IMPORT_OUTCOMES),
  /** The publication's page, when added or known. */
  slug: z.nullable(z.string()),
  name: z.nullable(z.string()),
  reason: z.nullable(z.string()),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importAnswerSchema = z.strictObject({ results: z.array(importResultSchema) });

/** At most this many sources are listed for attention; the counts cover them all. */
export const ATTENTION_LIST_LIMIT = 200;

/** A source the collector could not read lately, as a superuser sees it. */
export const attentionSourceSchema = z.strictObject({
  slug: z.string(),
  /** As last collected; null when it never was. */
  name: z.nullable(z.string()),
  platform: z.enum(SOURCE_PLATFORMS),
  url: z.string(),
  status: z.enum(['failing', 'flagged', 'gone']),
  /** Why the last attempt failed, in words. */
  lastError: z.nullable(z.string()),
  /** The first failure of the current run of failures. */
  failingSince: z.nullable(z.string()),
  lastCollectedAt: z.nullable(z.string()),
});
export type AttentionSource = z.infer<typeof attentionSourceSchema>;

export const attentionAnswerSchema = z.strictObject({
  /** Flagged first (failing for a week), then gone, then failing; the longest-failing first within each. */
  sources: z.array(attentionSourceSchema),
  counts: z.strictObject({ failing: z.number(), flagged: z.number(), gone: z.number() }),
});
export type AttentionAnswer = z.infer<typeof attentionAnswerSchema>;
