import type * as z from '../../../shared/zod';
import { type IngestResult, type PublicationSnapshot, publicationSnapshotSchema } from '../../../shared/schemas/ranking';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { DailyCounts, FollowerHistoryItem } from '../../lib/db/entities/follower-history';
import type { PublicationItem } from '../../lib/db/entities/publication';
import type { Db } from '../../lib/db/service';
import { type Day, monthDay, toDay, yearOf } from './domain/days';
import { recordCount, recordNoCount } from './domain/recent-counts';
import { shardOf } from './domain/shard';
import { computeStanding } from './domain/standing';

type RowResult = IngestResult['results'][number];
const CLOCK_SKEW_MS = 5 * 60_000;
const SLUG_CONCURRENCY = 8;

function fieldErrors(error: z.core.$ZodError): { field: string; message: string }[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: key, message: 'Unknown field' }))
      : [{ field: issue.path.map(String).join('.') || 'row', message: issue.message }],
  );
}

/** Checks each row on its own, so one bad row never costs the good ones. */
export function validateSnapshots(
  rows: unknown[],
  now: Date,
): { valid: { index: number; snapshot: PublicationSnapshot }[]; rejected: RowResult[] } {
  const valid: { index: number; snapshot: PublicationSnapshot }[] = [];
  const rejected: RowResult[] = [];
  rows.forEach((row, index) => {
    const parsed = publicationSnapshotSchema.safeParse(row);
    const slug = typeof (row as { slug?: unknown })?.slug === 'string' ? (row as { slug: string }).slug : null;
    if (!parsed.success) {
      rejected.push({ index, slug, status: 'rejected', errors: fieldErrors(parsed.error) });
    } else if (Date.parse(parsed.data.observedAt) > now.getTime() + CLOCK_SKEW_MS) {
      rejected.push({
        index,
        slug,
        status: 'rejected',
        errors: [{ field: 'observedAt', message: 'observedAt is in the future' }],
      });
    } else {
      valid.push({ index, snapshot: parsed.data });
    }
  });
  return { valid, rejected };
}

function keep<T>(incoming: T | null | undefined, existing: T | undefined): T | undefined {
  return incoming === undefined ? existing : (incoming ?? undefined);
}

/**
 * The publication and history items after applying one snapshot; pure, so it is easy to test.
 * A snapshot without followers (a plain feed) records no count: the history is left as it was
 * (undefined when there is none to write), and a publication never counted stays on the
 * activity boards only.
 */
export function applySnapshot(
  snapshot: PublicationSnapshot,
  existing: PublicationItem | undefined,
  history: FollowerHistoryItem | undefined,
  now: Date,
): { publication: PublicationItem; history: FollowerHistoryItem | undefined } {
  const day: Day = toDay(snapshot.observedAt);
  const existingWindow = existing && { endDay: existing.recentEndDay, counts: existing.recentCounts };
  const window =
    snapshot.followers === null ? recordNoCount(existingWindow, day) : recordCount(existingWindow, day, snapshot.followers);
  const isLatest = !existing || day >= existing.recentEndDay;
  const followersKnown = snapshot.followers !== null || (existing !== undefined && existing.followersKnown !== false);
  // A snapshot without a count keeps the last one known (0 for a publication never counted).
  const newestFollowers = snapshot.followers ?? existing?.followers ?? 0;
  // Offsets differ between sources: compare instants, store UTC so day arithmetic stays simple.
  const postTimes = [snapshot.latestPostAt, existing?.latestPostAt].flatMap((value) => (value ? [Date.parse(value)] : []));
  const latestPostAt = postTimes.length ? new Date(Math.max(...postTimes)).toISOString() : undefined;
  const facts = {
    slug: snapshot.slug,
    name: isLatest ? snapshot.name : (existing?.name ?? snapshot.name),
    url: isLatest ? snapshot.url : (existing?.url ?? snapshot.url),
    topics: isLatest ? snapshot.topics : (existing?.topics ?? snapshot.topics),
    followersKnown,
    followers: isLatest ? newestFollowers : (existing?.followers ?? newestFollowers),
    latestPostAt,
    recentEndDay: window.endDay,
    recentCounts: window.counts,
  };
  const standing = computeStanding(facts, window.endDay);
  const timestamp = now.toISOString();
  const publication: PublicationItem = {
    ...facts,
    // A late snapshot only fills in history; the newest one describes the publication.
    description: (isLatest ? keep(snapshot.description, existing?.description) : existing?.description) ?? '',
    imageUrl: isLatest ? keep(snapshot.imageUrl, existing?.imageUrl) : existing?.imageUrl,
    feedUrl: isLatest ? keep(snapshot.feedUrl, existing?.feedUrl) : existing?.feedUrl,
    followers7dAgo: standing.followers7dAgo,
    followers30dAgo: standing.followers30dAgo,
    firstSeenDay: existing && existing.firstSeenDay < day ? existing.firstSeenDay : day,
    shard: shardOf(snapshot.slug),
    // Only news brings a publication back to the boards; a late snapshot fills in history.
    ...(!isLatest && existing?.offBoardsSince ? { offBoardsSince: existing.offBoardsSince } : {}),
    revision: (existing?.revision ?? 0) + 1,
    createdAt: existing?.createdAt ?? timestamp,
    updatedAt: timestamp,
  };
  if (snapshot.followers === null) return { publication, history };
  const days: DailyCounts = { ...((history?.days as DailyCounts | undefined) ?? {}), [monthDay(day)]: snapshot.followers };
  return {
    publication,
    history: { slug: snapshot.slug, year: yearOf(day), days, revision: (history?.revision ?? 0) + 1, updatedAt: timestamp },
  };
}

const COMPARED_FIELDS = [
  'name',
  'url',
  'description',
  'imageUrl',
  'feedUrl',
  'followersKnown',
  'followers',
  'latestPostAt',
  'firstSeenDay',
  'recentEndDay',
  'offBoardsSince',
] as const;

function isUnchanged(before: PublicationItem, after: PublicationItem): boolean {
  const sameFields = COMPARED_FIELDS.every((field) => before[field] === after[field]);
  const sameLists =
    JSON.stringify(before.topics) === JSON.stringify(after.topics) &&
    JSON.stringify(before.recentCounts) === JSON.stringify(after.recentCounts);
  return sameFields && sameLists;
}

const countOn = (history: FollowerHistoryItem | undefined, day: Day) =>
  (history?.days as DailyCounts | undefined)?.[monthDay(day)];

async function storeSnapshot(db: Db, snapshot: PublicationSnapshot, now: Date): Promise<RowResult['status']> {
  const day = toDay(snapshot.observedAt);
  // Two writers may race on one publication: the revision conditions make the loser re-read.
  return retryContendedWrite({ what: `updating ${snapshot.slug}` }, async () => {
    const [{ data: existing }, { data: history }] = await Promise.all([
      db.entities.publication.get({ slug: snapshot.slug }).go({ consistent: true }),
      db.entities.followerHistory.get({ slug: snapshot.slug, year: yearOf(day) }).go({ consistent: true }),
    ]);
    const historyBefore = history ?? undefined;
    const next = applySnapshot(snapshot, existing ?? undefined, historyBefore, now);
    // A snapshot without followers hands the history back as it was: nothing to write there.
    const historyChanged = next.history !== historyBefore && countOn(next.history, day) !== countOn(historyBefore, day);
    if (existing && isUnchanged(existing, next.publication) && !historyChanged) return 'unchanged';
    // ElectroDB reports a failed revision condition as `canceled` rather than throwing.
    const result = await db.transaction
      .write(({ publication, followerHistory }) => [
        existing
          ? publication
              .put(next.publication)
              .where((attr, { eq }) => eq(attr.revision, existing.revision))
              .commit()
          : publication.create(next.publication).commit(),
        ...(next.history === undefined || next.history === historyBefore
          ? []
          : [
              history
                ? followerHistory
                    .put(next.history)
                    .where((attr, { eq }) => eq(attr.revision, history.revision))
                    .commit()
                : followerHistory.create(next.history).commit(),
            ]),
      ])
      .go();
    if (result.canceled) return lostRace(result);
    return existing ? 'updated' : 'created';
  });
}

/** Stores a batch; rows of one slug are applied in order, different slugs in parallel. */
export async function ingestSnapshots(db: Db, rows: unknown[], now: Date = new Date()): Promise<IngestResult> {
  const { valid, rejected } = validateSnapshots(rows, now);
  const bySlug = new Map<string, { index: number; snapshot: PublicationSnapshot }[]>();
  for (const row of valid) bySlug.set(row.snapshot.slug, [...(bySlug.get(row.snapshot.slug) ?? []), row]);
  const stored: RowResult[] = [];
  const groups = [...bySlug.values()];
  const worker = async () => {
    for (let group = groups.shift(); group; group = groups.shift()) {
      for (const { index, snapshot } of group) {
        stored.push({ index, slug: snapshot.slug, status: await storeSnapshot(db, snapshot, now) });
      }
    }
  };
  await Promise.all(Array.from({ length: SLUG_CONCURRENCY }, worker));
  const results = [...stored, ...rejected].sort((a, b) => a.index - b.index);
  return { stored: stored.length, rejected: rejected.length, results };
}
