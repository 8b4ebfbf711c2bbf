import * as z from '../zod';
import {
  boardQuerySchema,
  boardPageSchema,
  boardScreenSchema,
  followedPublicationsSchema,
  ingestBodySchema,
  ingestResultSchema,
  publicationDetailSchema,
  publicationFollowParamsSchema,
  publicationFollowStateSchema,
  searchQuerySchema,
  searchResultSchema,
  slugSchema,
  topicListSchema,
  topicsPageQuerySchema,
  topicsScreenSchema,
} from '../schemas/ranking';
import {
  attentionAnswerSchema,
  importAnswerSchema,
  importSourcesBodySchema,
  previewAnswerSchema,
  suggestionAnswerSchema,
  suggestionBodySchema,
  suggestionDecisionParamsSchema,
  suggestionListQuerySchema,
  suggestionPageSchema,
} from '../schemas/suggestions';
import { archivedMonthsSchema, archiveMonthParamsSchema, archiveQuerySchema, monthArchiveSchema } from '../schemas/month-archive';
import { defineRoute } from './define-route';

/** Boards change only when the ranking job runs (hourly), so answers may be reused briefly. */
const BOARD_CACHE_SECONDS = 60;

export const showHome = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/show/home',
  access: 'public',
  handler: 'ranking/show-home',
  summary: 'Screen data for /, /active and /topic/{tag}: most followed publications.',
  query: boardQuerySchema,
  response: boardScreenSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const showGrowth = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/show/growth',
  access: 'public',
  handler: 'ranking/show-growth',
  summary: 'Screen data for /growing, /growing/active and /topic/{tag}/growing.',
  query: boardQuerySchema,
  response: boardScreenSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const showActivity = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/show/activity',
  access: 'public',
  handler: 'ranking/show-activity',
  summary:
    'Screen data for /recent, /recent/active and /topic/{tag}/recent: newest post first, feeds without a follower count included.',
  query: boardQuerySchema,
  response: boardScreenSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const showTopics = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/show/topics',
  access: 'public',
  handler: 'ranking/show-topics',
  summary: 'Screen data for /topics and /topics/{page}.',
  query: topicsPageQuerySchema,
  response: topicsScreenSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const listTopics = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/topics',
  access: 'public',
  handler: 'ranking/list-topics',
  summary: 'Every topic with its publication count and total followers.',
  response: topicListSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const loadPubs = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/load/pubs',
  access: 'public',
  handler: 'ranking/load-pubs',
  summary: 'A page of the most-followed board (filters: active, topic).',
  query: boardQuerySchema,
  response: boardPageSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const loadGrowthPubs = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/load/growthPubs',
  access: 'public',
  handler: 'ranking/load-growth-pubs',
  summary: 'A page of the fastest-growing board (filters: active, topic).',
  query: boardQuerySchema,
  response: boardPageSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const loadActivityPubs = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/load/activityPubs',
  access: 'public',
  handler: 'ranking/load-activity-pubs',
  summary: 'A page of the recently-active board, newest post first (filters: active, topic).',
  query: boardQuerySchema,
  response: boardPageSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const searchPubs = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/search',
  access: 'public',
  handler: 'ranking/search-pubs',
  summary: 'Publications whose name or slug starts with, or has a word starting with, the query; by followers.',
  query: searchQuerySchema,
  response: searchResultSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const getPublication = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/pub/{slug}',
  access: 'public',
  handler: 'ranking/get-publication',
  summary: 'One publication with its daily follower history.',
  params: z.strictObject({ slug: slugSchema }),
  response: publicationDetailSchema,
  cacheSeconds: BOARD_CACHE_SECONDS,
});

export const ingestSnapshots = defineRoute({
  method: 'POST',
  path: '/api/i/toppubs/admin/snapshots',
  access: ['app', 'superuser'],
  handler: 'ranking/ingest-snapshots',
  summary: 'Stores a batch of publication snapshots, idempotent per (slug, day).',
  body: ingestBodySchema,
  response: ingestResultSchema,
});

export const runRanking = defineRoute({
  method: 'POST',
  path: '/api/i/toppubs/admin/rank',
  access: 'superuser',
  handler: 'ranking/run-ranking',
  summary: 'Recomputes every board now instead of waiting for the hourly job.',
  response: z.strictObject({ runId: z.string(), publications: z.number(), boards: z.number(), durationMs: z.number() }),
  memoryMb: 1024,
  // A run queues the news of publications that rose for their followers, as the hourly job does.
  capabilities: { queues: ['notification-fanout'] },
  // A whole ranking run, as the hourly job does it (which has 5 minutes): as long as API Gateway waits.
  timeoutSeconds: 28,
});

export const followPublication = defineRoute({
  method: 'PUT',
  path: '/api/i/toppubs/pub/{slug}/follow/{status}',
  access: 'user',
  handler: 'ranking/follow-publication',
  summary:
    "Follows (status 'on') or stops following ('off') a publication; repeating either changes nothing. Followers are told when it enters a board's top 100, climbs 10 places or more, or becomes active again, and get it in their weekly digest. 404 for an unknown publication, 409 beyond 500 followed.",
  params: publicationFollowParamsSchema,
  response: publicationFollowStateSchema,
});

export const listFollowedPublications = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/me/following',
  access: 'user',
  handler: 'ranking/list-followed-publications',
  summary: "The caller's followed publications, newest follow first, each with its standing and its rank on both overall boards.",
  response: followedPublicationsSchema,
});

export const previewSuggestion = defineRoute({
  method: 'POST',
  path: '/api/i/toppubs/suggestion/preview',
  access: 'user',
  handler: 'ranking/preview-suggestion',
  summary:
    "Reads a pasted publication address once (a Medium publication, a WordPress.com blog, or any site's RSS or Atom feed) and answers what its platform shows: name, site, followers (null for a feed, which counts none and is ranked on the activity boards only), latest post, and whether the site already ranks it. Nothing is stored. 400 for an address we cannot read; 422 when no publication is there; 429 after 30 previews in an hour.",
  body: suggestionBodySchema,
  response: previewAnswerSchema,
  capabilities: { settings: ['sources'] },
  // It reads the web: a slow platform must not be cut off at the default 10 s.
  timeoutSeconds: 25,
});

export const suggestPublication = defineRoute({
  method: 'POST',
  path: '/api/i/toppubs/suggestion',
  access: 'user',
  handler: 'ranking/suggest-publication',
  summary:
    'Suggests a publication by its address: 201 with the suggestion, accepted at once (collected and on the boards at the next ranking run) when its followers reach the floor (SUGGESTION_AUTO_ACCEPT_FOLLOWERS), otherwise pending for a superuser. 200 with the earlier suggestion, or the publication already ranked, for one known before. 429 after 10 suggestions in a day.',
  body: suggestionBodySchema,
  response: suggestionAnswerSchema,
  capabilities: { settings: ['sources'] },
  // It reads the web: a slow platform must not be cut off at the default 10 s.
  timeoutSeconds: 25,
});

export const listMySuggestions = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/suggestions/mine',
  access: 'user',
  handler: 'ranking/list-my-suggestions',
  summary: "The caller's suggestions, newest first, 20 a page, each with what became of it.",
  query: suggestionListQuerySchema,
  response: suggestionPageSchema,
});

export const listSuggestionQueue = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/suggestions/queue',
  access: 'superuser',
  handler: 'ranking/list-suggestion-queue',
  summary: 'Superusers: the suggestions waiting for a decision, oldest first, 20 a page.',
  query: suggestionListQuerySchema,
  response: suggestionPageSchema,
});

export const decideSuggestion = defineRoute({
  method: 'PUT',
  path: '/api/i/toppubs/suggestion/{id}/{decision}',
  access: 'superuser',
  handler: 'ranking/decide-suggestion',
  summary:
    'Superusers: accepts a waiting suggestion (the publication is collected from then on, and on the boards at the next ranking run) or rejects it. 404 for an unknown id, 409 when it was already decided.',
  params: suggestionDecisionParamsSchema,
  response: suggestionAnswerSchema,
});

export const importSources = defineRoute({
  method: 'POST',
  path: '/api/i/toppubs/admin/sources/import',
  access: 'superuser',
  handler: 'ranking/import-sources',
  summary:
    'Superusers: adds up to 5 publication addresses at once, without review, answering for each whether it was added, already known, or not added and why (the web app sends a long list 5 at a time and builds the report). Added ones are collected from then on and reach the boards at the next ranking run.',
  body: importSourcesBodySchema,
  response: importAnswerSchema,
  // It reads the web: a slow platform must not be cut off at the default 10 s.
  timeoutSeconds: 28,
});

export const listSourcesNeedingAttention = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/admin/sources/attention',
  access: 'superuser',
  handler: 'ranking/list-sources-needing-attention',
  summary:
    'Superusers: the publication sources the collector could not read lately (failing; flagged after 7 days of failures; gone after 7 days of 404 or 410), with the reason, flagged ones first, and how many there are of each.',
  response: attentionAnswerSchema,
  // It reads every source's state, shard by shard.
  timeoutSeconds: 20,
});

/** An archived month never changes; the list of months changes once a month. */
const ARCHIVE_CACHE_SECONDS = 3_600;
const ARCHIVED_MONTHS_CACHE_SECONDS = 300;

export const showArchiveMonth = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/archive/{year}/{month}',
  access: 'public',
  handler: 'ranking/show-archive-month',
  summary:
    "Screen data for /archive/{year}/{month}: a closed month's most followed, fastest growing and most active publications, overall or of one topic (one read).",
  params: archiveMonthParamsSchema,
  query: archiveQuerySchema,
  response: monthArchiveSchema,
  cacheSeconds: ARCHIVE_CACHE_SECONDS,
});

export const listArchivedMonths = defineRoute({
  method: 'GET',
  path: '/api/i/toppubs/archive',
  access: 'public',
  handler: 'ranking/list-archived-months',
  summary: 'Every archived month of the rankings, newest first.',
  response: archivedMonthsSchema,
  cacheSeconds: ARCHIVED_MONTHS_CACHE_SECONDS,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allRankingRoutes = {
  showHome,
  showGrowth,
  showTopics,
  listTopics,
  loadPubs,
  loadGrowthPubs,
  searchPubs,
  getPublication,
  ingestSnapshots,
  runRanking,
  followPublication,
  listFollowedPublications,
  previewSuggestion,
  suggestPublication,
  listMySuggestions,
  listSuggestionQueue,
  decideSuggestion,
  importSources,
  listSourcesNeedingAttention,
  showActivity,
  loadActivityPubs,
  showArchiveMonth,
  listArchivedMonths,
};
