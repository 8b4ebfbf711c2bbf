import { addMonths, monthOfDate } from '../../../shared/archive-months';
import type { ArchiveBoards, ArchiveTopic } from '../../../shared/schemas/month-archive';
import { getBatch, writeBatch } from '../../lib/db/batches';
import { ARCHIVED_MONTHS_LIST } from '../../lib/db/entities/archived-month';
import type { FollowerHistoryItem } from '../../lib/db/entities/follower-history';
import type { PublicationArchiveMonthItem } from '../../lib/db/entities/publication-archive-month';
import { archiveScope, type RankingArchiveItem } from '../../lib/db/entities/ranking-archive';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import {
  type ArchivedScope,
  computeMonthArchive,
  type FollowerYear,
  followersOverMonth,
  type MonthEntry,
  type MonthPresence,
  placementsOf,
  presenceOf,
} from './domain/month-archive';
import { decodeMonth, RANK_HISTORY_BUCKET_GROUP, RANK_HISTORY_BUCKETS, rankHistoryExpiry } from './domain/rank-history';
import { forEachPublicationPage, type PublicationRow } from './ranking-run';
import { listArchivedMonths } from './archive-reader';
import { groupsOf, inGroups } from '../../lib/in-groups';

/** Scope items written at once: each is tens of KB, and DynamoDB takes one conditional put per call. */
const SCOPE_WRITE_CONCURRENCY = 8;
const WRITE_CONCURRENCY = 4;
/** Publications whose follower history is read at once: one BatchGet (100 keys, two a January). */
const FOLLOWER_GROUP = 50;

export interface MonthArchiveReport {
  month: string;
  /** False when the month has no rank history (before the product ran, or long gone). */
  archived: boolean;
  publications: number;
  scopes: number;
  /** Scopes an earlier, unfinished run of this month had already stored (kept as they were). */
  scopesKept: number;
  linkedPublications: number;
}

/**
 * Closed months whose rank history is still kept (it expires some three months after the month),
 * oldest first: the months an archive run may still archive. A month missed by a failed run is
 * archived by the next one, as long as its history lasts.
 */
export function archivableMonths(now: Date): string[] {
  const months: string[] = [];
  for (
    let month = addMonths(monthOfDate(now), -1);
    rankHistoryExpiry(month) * 1000 > now.getTime();
    month = addMonths(month, -1)
  ) {
    months.unshift(month);
  }
  return months;
}

/**
 * Each publication's month from the rank history, a group of buckets at a time: at 200,000
 * publications a bucket's month is some 260 KB stored and 1.6 MB decoded, so only one group's
 * items and one bucket's decoded ranks are held at once.
 */
async function readPresence(db: Db, month: string): Promise<Map<string, MonthPresence>> {
  const presence = new Map<string, MonthPresence>();
  const buckets = Array.from({ length: RANK_HISTORY_BUCKETS }, (_, bucket) => bucket);
  for (const group of groupsOf(buckets, RANK_HISTORY_BUCKET_GROUP)) {
    const items = await getBatch({
      keys: group.map((bucket) => ({ bucket, month })),
      send: (keys) => db.entities.rankHistory.get(keys).go(),
      what: `rank history buckets of ${month}`,
    });
    for (const item of items) {
      for (const [slug, days] of Object.entries(decodeMonth(item.payload))) {
        const found = presenceOf(days);
        if (found) presence.set(slug, found);
      }
    }
  }
  return presence;
}

/**
 * Each publication's followers at the month's start and end, from its follower history (and the
 * year before's, for a January's starting count). Read a group of publications at a time, and
 * only the two counts kept: a year of daily counts is kilobytes a publication.
 */
async function readMonthFollowers(
  db: Db,
  slugs: readonly string[],
  month: string,
): Promise<Map<string, ReturnType<typeof followersOverMonth>>> {
  const year = month.slice(0, 4);
  const years = month.endsWith('-01') ? [String(Number(year) - 1), year] : [year];
  const followers = new Map<string, ReturnType<typeof followersOverMonth>>();
  for (const group of groupsOf(slugs, FOLLOWER_GROUP)) {
    const items: FollowerHistoryItem[] = await getBatch({
      keys: group.flatMap((slug) => years.map((of) => ({ slug, year: of }))),
      send: (keys) => db.entities.followerHistory.get(keys).go(),
      what: `follower histories for ${month}`,
    });
    const bySlug = new Map<string, FollowerYear[]>();
    for (const item of items) {
      const found = bySlug.get(item.slug) ?? [];
      found.push({ year: item.year, days: item.days as FollowerYear['days'] });
      bySlug.set(item.slug, found);
    }
    for (const slug of group) followers.set(slug, followersOverMonth(bySlug.get(slug) ?? [], month));
  }
  return followers;
}

function scopeItem(month: string, scope: ArchivedScope, topics: ArchiveTopic[], archivedAt: string): RankingArchiveItem {
  return {
    month,
    scope: archiveScope(scope.topic?.tag),
    topic: scope.topic,
    publicationCount: scope.publicationCount,
    boards: scope.boards,
    topics,
    archivedAt,
  };
}

/**
 * Archives one closed month once: its boards of every scope, each publication's link to the
 * months it ranked in, then the month's entry in the list of archived months, last, so a month
 * listed is a month complete. Every write is a create: a scope an unfinished earlier run stored
 * is kept as it is, and the publications' links are made from the stored scopes, so a second run
 * writes nothing new and a resumed one agrees with what is already there.
 */
export async function archiveMonth(db: Db, month: string, now: Date): Promise<MonthArchiveReport> {
  const presence = await readPresence(db, month);
  const empty = { month, archived: false, publications: 0, scopes: 0, scopesKept: 0, linkedPublications: 0 };
  if (presence.size === 0) return empty;

  // Only what an entry shows of each publication that ranked in the month, page by page.
  const publications: Pick<PublicationRow, 'slug' | 'name' | 'url' | 'imageUrl' | 'followersKnown'>[] = [];
  await forEachPublicationPage(db, (rows) => {
    for (const { slug, name, url, imageUrl, followersKnown } of rows)
      if (presence.has(slug)) publications.push({ slug, name, url, imageUrl, followersKnown });
  });
  const counted = publications.filter((publication) => publication.followersKnown !== false).map(({ slug }) => slug);
  const monthFollowers = await readMonthFollowers(db, counted, month);
  const entries: MonthEntry[] = publications.map((publication) => ({
    slug: publication.slug,
    name: publication.name,
    url: publication.url,
    imageUrl: publication.imageUrl ?? null,
    presence: presence.get(publication.slug) as MonthPresence,
    followers: publication.followersKnown === false ? null : (monthFollowers.get(publication.slug) ?? null),
  }));
  const computed = computeMonthArchive(month, entries);
  const archivedAt = now.toISOString();
  const items = [computed.overall, ...computed.topics].map((scope) => scopeItem(month, scope, computed.topicList, archivedAt));

  const kept: string[] = [];
  await inGroups(items, SCOPE_WRITE_CONCURRENCY, async (item) => {
    try {
      await db.entities.rankingArchive.create(item).go();
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      kept.push(item.scope);
    }
  });
  const stored = new Map(items.map((item) => [item.scope, item]));
  if (kept.length > 0) {
    const earlier = await getBatch({
      keys: kept.map((scope) => ({ month, scope })),
      send: (keys) => db.entities.rankingArchive.get(keys).go({ consistent: true }),
      what: `archived scopes of ${month}`,
    });
    for (const item of earlier) stored.set(item.scope, item);
  }

  const placements = placementsOf(
    [...stored.values()].map((item) => ({ topic: item.topic as ArchiveTopic | null, boards: item.boards as ArchiveBoards })),
  );
  const links: PublicationArchiveMonthItem[] = [...placements].map(([slug, places]) => ({ slug, month, placements: places }));
  // Same keys and the same places on a resumed run: a put here rewrites nothing that differs.
  await writeBatch({
    items: links,
    send: (pending) => db.entities.publicationArchiveMonth.put(pending).go({ concurrent: WRITE_CONCURRENCY }),
    keyOf: (key) => `${key.slug}#${key.month}`,
    what: `publications' archive links of ${month}`,
  });

  try {
    await db.entities.archivedMonth
      .create({
        list: ARCHIVED_MONTHS_LIST,
        month,
        publicationCount: computed.overall.publicationCount,
        topicCount: computed.topicList.length,
        archivedAt,
      })
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  return {
    month,
    archived: true,
    publications: entries.length,
    scopes: items.length,
    scopesKept: kept.length,
    linkedPublications: links.length,
  };
}

/**
 * What the scheduled job does: every archivable month not archived yet, oldest first. A month
 * already listed costs nothing but the one Query of the list.
 */
export async function archiveClosedMonths(db: Db, now: Date = new Date()): Promise<MonthArchiveReport[]> {
  const done = new Set((await listArchivedMonths(db)).map((item) => item.month));
  const reports: MonthArchiveReport[] = [];
  for (const month of archivableMonths(now)) {
    if (!done.has(month)) reports.push(await archiveMonth(db, month, now));
  }
  return reports;
}
