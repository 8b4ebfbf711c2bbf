import type { PublicationSnapshot } from '../../../../shared/schemas/ranking';
import { type PublicationSourceItem, SOURCE_SHARDS } from '../../../lib/db/entities/publication-source';
import { getBatch } from '../../../lib/db/batches';
import { isConditionalCheckFailed } from '../../../lib/db/errors';
import type { Db } from '../../../lib/db/service';
import { bucketOf } from '../domain/shard';
import { ingestSnapshots } from '../ingest';
import { SOURCE_ADAPTERS } from './adapters';
import {
  NotModified,
  type SourceAdapter,
  type SourceFetch,
  SourceError,
  type SourceRef,
  type SourceSnapshot,
  type Validators,
} from './source-adapter';
import { kebabCase, SLUG_MAX_LENGTH } from '../../../../shared/slug';
import { type CollectionOutcome, nextSourceState, outcomeOfError, type SourceState } from './source-state';
import { logger } from '../../../lib/logger';
import type { PlannedSource } from './collection-plan';
import { RobotsUnreachable } from './polite-fetch';

const MAX_NAME = 200;
const MAX_DESCRIPTION = 1000;
const MAX_TOPICS = 10;

const MAX_TOPIC = 60;

/** A platform's tag as one of our topics ('Data Science' -> 'data-science'), or null when nothing is left. */
export const topicOf = (tag: string) => kebabCase(tag, MAX_TOPIC);

/** A slug for a new publication from its name (or its address when the name has no letters left). */
export function slugFrom(name: string, url: string): string {
  const { hostname, pathname } = new URL(url);
  return kebabCase(name, SLUG_MAX_LENGTH) ?? kebabCase(hostname + pathname, SLUG_MAX_LENGTH) ?? 'publication';
}

/**
 * The snapshot as the ingestion path takes it, under our slug and cut to its limits. A source
 * that counts no followers (a plain feed) sends none: it is ranked on the activity boards only.
 */
export function toIngestionRow(snapshot: SourceSnapshot, slug: string, observedAt: Date): PublicationSnapshot {
  const topics = [...new Set(snapshot.topics.map(topicOf).filter((topic): topic is string => topic !== null))];
  return {
    slug,
    name: snapshot.name.trim().slice(0, MAX_NAME),
    url: snapshot.url,
    followers: snapshot.followers,
    latestPostAt: snapshot.latestPostAt,
    topics: topics.slice(0, MAX_TOPICS),
    observedAt: observedAt.toISOString(),
    ...(snapshot.description ? { description: snapshot.description.trim().slice(0, MAX_DESCRIPTION) } : {}),
    imageUrl: snapshot.imageUrl,
    feedUrl: snapshot.feedUrl,
  };
}

function adapterFor(platform: PublicationSourceItem['platform']): SourceAdapter {
  const adapter = SOURCE_ADAPTERS.find((candidate) => candidate.platform === platform);
  if (!adapter) throw new Error(`No adapter reads ${platform}`);
  return adapter;
}

/** Where to read the source next time: where the snapshot says it now lives, when its adapter reads that address. */
function currentAddress(adapter: SourceAdapter, snapshot: SourceSnapshot, previous: string): string {
  try {
    return adapter.recognise(new URL(snapshot.url))?.url ?? previous;
  } catch {
    return previous;
  }
}

/** Stores the snapshot through the ingestion path, as the API does; a refused row is a failure of the source. */
async function ingest(db: Db, snapshot: SourceSnapshot, slug: string, now: Date): Promise<void> {
  const row = toIngestionRow(snapshot, slug, now);
  const result = await ingestSnapshots(db, [row], now);
  const refused = result.results.find((entry) => entry.status === 'rejected');
  if (refused) {
    const why = refused.errors?.map((error) => `${error.field}: ${error.message}`).join('; ') ?? 'refused';
    throw new SourceError(`The snapshot of ${snapshot.url} was refused (${why})`);
  }
}

export interface SourceCollection {
  canonicalId: string;
  slug: string;
  outcome: CollectionOutcome['kind'];
  status: SourceState['status'];
}

export interface CollectSourcesOptions {
  /** Sources attempted after this time are skipped (the collector's daily pace). */
  notAttemptedSince?: Date;
  /**
   * The time the caller has left (Lambda's remaining time): no source is started that might
   * not end within it, twice the longest one so far plus a margin; the rest are `notReached`.
   */
  timeLeftMs?: () => number;
  /**
   * The local runtime without its fixture web has no internet: a host out of reach there says
   * nothing of the source, so the attempt is deferred (logged once per host) instead of
   * starting a failure streak that would flag every source after a week.
   */
  offline?: boolean;
}

const hostsReportedOffline = new Set<string>();

/**
 * Collects one source now: reads it through its adapter, stores the snapshot under the
 * publication's slug, and records the outcome on the source (streaks, the new address after a
 * move). An address that now leads to another publication (its canonical id differs) is a
 * failure of this one, never a merge of the two.
 */
export async function collectSource(
  db: Db,
  source: PublicationSourceItem,
  fetch: SourceFetch,
  now: Date = new Date(),
  options: Pick<CollectSourcesOptions, 'offline'> = {},
): Promise<SourceCollection> {
  const adapter = adapterFor(source.platform);
  const ref: SourceRef = { platform: source.platform, url: source.sourceUrl };
  const previous = storedJson<SourceSnapshot>(source.lastSnapshot);
  const conditional = conditionalFetch(fetch, previous ? (storedJson<Record<string, Validators>>(source.validators) ?? {}) : {});
  let outcome: CollectionOutcome;
  let snapshot: SourceSnapshot | undefined;
  try {
    snapshot = await adapter.collect(ref, conditional.fetch, now, previous);
    if (snapshot.canonicalId !== source.canonicalId) {
      throw new SourceError(`${source.sourceUrl} now leads to another publication (${snapshot.canonicalId})`);
    }
    await ingest(db, snapshot, source.slug, now);
    outcome = { kind: 'collected', snapshot };
  } catch (error) {
    outcome = options.offline && isNetworkUnreachable(error) ? offlineOutcome(error) : outcomeOfError(error);
  }
  const state = nextSourceState(source, outcome, now);
  if (state !== source) {
    const collected = outcome.kind === 'collected' ? { snapshot: outcome.snapshot, validators: conditional.learnt } : undefined;
    await saveState(db, source, state, collected, adapter, now);
  }
  if (state.status === 'gone' && source.status !== 'gone') await takeOffBoards(db, source.slug, now);
  return { canonicalId: source.canonicalId, slug: source.slug, outcome: outcome.kind, status: state.status };
}

const OPTIONAL_STATE_FIELDS = ['lastCollectedAt', 'lastAttemptAt', 'failingSince', 'goneSince', 'lastError'] as const;

/**
 * What the last collection stored (its snapshot, its validators), or undefined when there is
 * none or it cannot be read: the next read is then a full one, never a failed batch.
 */
export function storedJson<T extends object>(json: string | undefined): T | undefined {
  if (!json) return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null ? (parsed as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A fetch that sends each document's stored validators (so an unchanged one is answered 304 and
 * the adapter reuses the previous snapshot's part of it) and learns the new ones: what the next
 * collection sends. An unchanged document keeps its validators.
 */
export function conditionalFetch(fetch: SourceFetch, stored: Readonly<Record<string, Validators>>) {
  const learnt: Record<string, Validators> = {};
  const conditional: SourceFetch = async (url, options) => {
    const known = stored[url];
    try {
      const document = await fetch(url, { ...options, ...(known ? { validators: known } : {}) });
      if (document.validators) learnt[url] = document.validators;
      return document;
    } catch (error) {
      if (error instanceof NotModified && known) learnt[url] = known;
      throw error;
    }
  };
  return { fetch: conditional, learnt };
}

async function saveState(
  db: Db,
  source: PublicationSourceItem,
  state: SourceState,
  collected: { snapshot: SourceSnapshot; validators: Record<string, Validators> } | undefined,
  adapter: SourceAdapter,
  now: Date,
): Promise<void> {
  const snapshot = collected?.snapshot;
  const set: Partial<PublicationSourceItem> = { status: state.status, updatedAt: now.toISOString() };
  const remove: ((typeof OPTIONAL_STATE_FIELDS)[number] | 'validators')[] = [];
  for (const field of OPTIONAL_STATE_FIELDS) {
    const value = state[field];
    if (value === undefined) {
      if (source[field] !== undefined) remove.push(field);
    } else set[field] = value;
  }
  if (snapshot) {
    set.sourceUrl = currentAddress(adapter, snapshot, source.sourceUrl);
    set.lastSnapshot = JSON.stringify(snapshot);
    if (snapshot.followers !== null) set.followers = snapshot.followers;
    if (Object.keys(collected.validators).length > 0) set.validators = JSON.stringify(collected.validators);
    else if (source.validators !== undefined) remove.push('validators');
  }
  const patch = db.entities.publicationSource.patch({ canonicalId: source.canonicalId }).set(set);
  await (remove.length > 0 ? patch.remove(remove) : patch).go();
}

export interface BatchCollection {
  collected: number;
  failed: number;
  deferred: number;
  /** Attempted since `notAttemptedSince` (a message delivered again, or planned twice): left alone. */
  skipped: number;
  /** Ids asked for that name no source (deleted meanwhile): nothing to do. */
  unknown: string[];
  /** Ids not reached before the time ran out (`timeLeftMs`), in the batch's order: for another run. */
  notReached: string[];
  results: SourceCollection[];
}

/** A batch's report before any source of it is read. */
export function emptyBatchCollection(): BatchCollection {
  return { collected: 0, failed: 0, deferred: 0, skipped: 0, unknown: [], notReached: [], results: [] };
}

/** Time kept in hand when deciding whether another source fits before the function's timeout. */
const TIME_MARGIN_MS = 15_000;

/**
 * Collects a batch of sources, one after another, as the fan-out's worker does with one message
 * (a batch holds one host's sources, so the polite fetch's pace for that host is the batch's
 * pace). One source's failure is recorded on it and never stops the others.
 */
export async function collectSources(
  db: Db,
  canonicalIds: readonly string[],
  fetch: SourceFetch,
  now: Date = new Date(),
  options: CollectSourcesOptions = {},
): Promise<BatchCollection> {
  const sources = await getBatch({
    keys: [...new Set(canonicalIds)].map((canonicalId) => ({ canonicalId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.publicationSource.get(keys).go();
      return { data, unprocessed: unprocessed.map((key) => ({ canonicalId: key.canonicalId })) };
    },
    what: 'publication sources',
  });
  const byId = new Map(sources.map((source) => [source.canonicalId, source]));
  const report = emptyBatchCollection();
  const notAttemptedSince = options.notAttemptedSince?.toISOString();
  const ids = [...new Set(canonicalIds)];
  let longestMs = 0;
  for (const [index, canonicalId] of ids.entries()) {
    if (options.timeLeftMs && options.timeLeftMs() < 2 * longestMs + TIME_MARGIN_MS) {
      report.notReached = ids.slice(index);
      break;
    }
    const source = byId.get(canonicalId);
    if (!source) {
      report.unknown.push(canonicalId);
      continue;
    }
    if (notAttemptedSince !== undefined && source.lastAttemptAt !== undefined && source.lastAttemptAt > notAttemptedSince) {
      report.skipped += 1;
      continue;
    }
    const started = Date.now();
    const result = await collectSource(db, source, fetch, now, options);
    longestMs = Math.max(longestMs, Date.now() - started);
    report[result.outcome] += 1;
    report.results.push(result);
  }
  return report;
}

/** A gone source's publication leaves the boards at the next ranking run; its page and history stay. */
async function takeOffBoards(db: Db, slug: string, now: Date): Promise<void> {
  try {
    await db.entities.publication.patch({ slug }).set({ offBoardsSince: now.toISOString() }).go();
  } catch (error) {
    // A source gone before its first snapshot was stored has no publication to take off.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** The collector's shard for a source: stable, so one batch always holds the same sources. */
export const collectShardOf = (canonicalId: string) => bucketOf(canonicalId, SOURCE_SHARDS);

/** No answer at all (no DNS, no route, no connection), as opposed to an answer we did not like. */
export function isNetworkUnreachable(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && NETWORK_UNREACHABLE_CODES.has(code)) return true;
  }
  return false;
}

const NETWORK_UNREACHABLE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNREFUSED']);

function offlineOutcome(error: unknown): CollectionOutcome {
  const host = error instanceof RobotsUnreachable ? error.host : 'the web';
  if (!hostsReportedOffline.has(host)) {
    hostsReportedOffline.add(host);
    logger.warn(
      `${host} cannot be reached from here: its sources are skipped, not counted as failing (LOCAL_SOURCES=fixtures reads them from the demo fixture web)`,
    );
  }
  return { kind: 'deferred', reason: `${host} cannot be reached from here` };
}

/** What the planner needs of every source, read shard by shard (the snapshots stay behind). */
export async function listSourcesToPlan(db: Db): Promise<PlannedSource[]> {
  const shards = await Promise.all(
    Array.from({ length: SOURCE_SHARDS }, (_, collectShard) =>
      db.entities.publicationSource.query
        .byShard({ collectShard })
        .go({ pages: 'all', attributes: ['canonicalId', 'platform', 'sourceUrl', 'status', 'lastAttemptAt'] }),
    ),
  );
  return shards.flatMap(({ data }) => data);
}
