import type { SourcePlatform, SourceStatus } from '../../../../shared/schemas/ranking';
import { SOURCE_ADAPTERS } from './adapters';

/** A source is collected again once its last attempt is this old: daily, with slack for the queue's pace. */
export const COLLECT_AGAIN_AFTER_HOURS = 20;
/** A gone source is still looked at, weekly, in case it comes back. */
export const GONE_LOOKED_AT_AFTER_DAYS = 7;
/** Sources per queue message: one host's, read one after another within the worker's timeout. */
export const SOURCES_PER_BATCH = 50;
/** The least time between two requests to one host, as the collector reads it. */
export const COLLECTION_MIN_INTERVAL_MS = 1_000;
/** Requests one host gets from the collector in a UTC day, at most. */
export const COLLECTION_DAILY_BUDGET_PER_HOST = 50_000;
/**
 * The share of a day a host's requests may take at the least interval: the rest is slack for
 * slow answers, retries and robots.txt, so a day's plan for a host ends within the day.
 */
const DAY_SHARE = 0.8;
const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What the planner reads of a source. */
export interface PlannedSource {
  canonicalId: string;
  platform: SourcePlatform;
  sourceUrl: string;
  status: SourceStatus;
  lastAttemptAt?: string | undefined;
}

/** One queue message: sources that one host answers for. */
export interface CollectionBatch {
  host: string;
  canonicalIds: string[];
}

export interface CollectionPlan {
  batches: CollectionBatch[];
  /** Sources due now. */
  due: number;
  /** Due sources left for tomorrow because their host's day is full. */
  postponed: number;
  /** Due sources per host, for the log. */
  hosts: Record<string, number>;
}

/** Sources one host can be asked about in a day: within its budget and within the day at the least interval. */
export function sourcesPerHostPerDay(requestsPerSnapshot: number): number {
  const requestsInADay = Math.min(COLLECTION_DAILY_BUDGET_PER_HOST, (DAY_SHARE * DAY_MS) / COLLECTION_MIN_INTERVAL_MS);
  return Math.floor(requestsInADay / requestsPerSnapshot);
}

/** Whether a source's last attempt is old enough for another. */
export function isDue(source: Pick<PlannedSource, 'status' | 'lastAttemptAt'>, now: Date): boolean {
  if (source.lastAttemptAt === undefined) return true;
  const age = now.getTime() - Date.parse(source.lastAttemptAt);
  if (Number.isNaN(age)) return true;
  return source.status === 'gone' ? age >= GONE_LOOKED_AT_AFTER_DAYS * DAY_MS : age >= COLLECT_AGAIN_AFTER_HOURS * HOUR_MS;
}

/**
 * The day's collection: every due source, grouped by the host its adapter asks, in batches of
 * SOURCES_PER_BATCH, the longest-waiting first. A host gets no more sources than it can answer
 * in a day within its budget; the rest wait for tomorrow's plan, first in line.
 */
export function planCollection(sources: readonly PlannedSource[], now: Date): CollectionPlan {
  const byHost = new Map<string, { perSnapshot: number; sources: PlannedSource[] }>();
  let due = 0;
  for (const source of sources) {
    if (!isDue(source, now)) continue;
    const adapter = SOURCE_ADAPTERS.find((candidate) => candidate.platform === source.platform);
    if (!adapter) continue;
    const { host, perSnapshot } = adapter.requests({ platform: source.platform, url: source.sourceUrl });
    const entry = byHost.get(host) ?? { perSnapshot, sources: [] };
    entry.perSnapshot = Math.max(entry.perSnapshot, perSnapshot);
    entry.sources.push(source);
    byHost.set(host, entry);
    due += 1;
  }
  const plan: CollectionPlan = { batches: [], due, postponed: 0, hosts: {} };
  for (const [host, entry] of [...byHost].sort(([a], [b]) => a.localeCompare(b))) {
    // Never tried first, then the oldest attempt; the id breaks ties so a plan is repeatable.
    const ordered = entry.sources.sort(
      (a, b) => (a.lastAttemptAt ?? '').localeCompare(b.lastAttemptAt ?? '') || a.canonicalId.localeCompare(b.canonicalId),
    );
    const today = ordered.slice(0, sourcesPerHostPerDay(entry.perSnapshot));
    plan.postponed += ordered.length - today.length;
    plan.hosts[host] = ordered.length;
    for (let start = 0; start < today.length; start += SOURCES_PER_BATCH) {
      plan.batches.push({
        host,
        canonicalIds: today.slice(start, start + SOURCES_PER_BATCH).map((source) => source.canonicalId),
      });
    }
  }
  return plan;
}
