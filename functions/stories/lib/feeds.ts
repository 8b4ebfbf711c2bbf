import { HOT_WINDOW_DAYS, rankHot } from '../../../shared/stories/hot-score';
import type { Story } from '../../../shared/schemas/stories';
import { writeBatch } from '../../lib/db/batches';
import { checkedCursor, InvalidCursor } from '../../lib/db/cursors';
import type { StoryItem } from '../../lib/db/entities/story';
import { HOT_LIST } from '../../lib/db/entities/story-feed';
import { PreparedJson } from '../../lib/http/responses';
import { LruCache } from '../../lib/lru-cache';
import type { Db } from '../../lib/db/service';
import { requireUser } from '../../lib/db/users';
import type { Viewer } from './story-view';
import { getStories, storiesFor } from './story-relations';
import { addShardedLikes } from './story-like-count';

export const FEED_PAGE_SIZE = 20;
/** How long a story stays in its sharer's followers' "following" feeds. */
export const TIMELINE_DAYS = 30;
/** Stories of the last 30 days copied into a new follower's feed. */
const BACKFILL_LIMIT = 100;
/** Stories the hot ranking reads at most: a week of a busy site. */
const HOT_CANDIDATES_LIMIT = 5_000;

export interface StoryPage {
  items: Story[];
  nextCursor: string | null;
}

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/**
 * How long an instance reuses a public feed page for visitors who are not signed in: a page is
 * the same for all of them, so a busy feed costs one read per 15 seconds instead of three per
 * request. A like or a new story shows within that; signed-in readers, whose pages carry their
 * own likes, always read afresh.
 */
export const VISITOR_FEED_CACHE_MS = 15_000;
/**
 * Kept serialised, with its ETag: a hit costs a map lookup, no JSON.stringify and no hashing.
 * Each key names one kind of page (its first segment), so a hit is of the kind its caller reads.
 */
const visitorPages = new LruCache<{ page: PreparedJson; readAt: number }>(500);
const pendingVisitorPages = new Map<string, Promise<PreparedJson>>();

/** What a feed answers: a signed-in reader's own page, or the visitors' shared one. */
export type FeedAnswer<Page = StoryPage> = Page | PreparedJson<Page>;

/** A page as `read` makes it for a signed-in viewer; for visitors, the page all of them share (VISITOR_FEED_CACHE_MS). */
export async function forVisitors<Page = StoryPage>(
  key: string,
  viewer: Viewer | undefined,
  read: () => Promise<Page>,
): Promise<FeedAnswer<Page>> {
  if (viewer) return read();
  const hit = visitorPages.get(key);
  if (hit && Date.now() - hit.readAt < VISITOR_FEED_CACHE_MS) return hit.page as PreparedJson<Page>;
  // Concurrent misses share one read.
  let pending = pendingVisitorPages.get(key) as Promise<PreparedJson<Page>> | undefined;
  if (!pending) {
    pending = read()
      .then((page) => PreparedJson.of(page))
      .finally(() => pendingVisitorPages.delete(key));
    pendingVisitorPages.set(key, pending);
  }
  const page = await pending;
  visitorPages.set(key, { page, readAt: Date.now() });
  return page;
}

/** Newest first: one Query of the all-stories index, then the batch reads of storiesFor. */
export async function readNewFeed(
  db: Db,
  options: { cursor?: string | undefined; viewer: Viewer | undefined },
): Promise<FeedAnswer> {
  // Built only when needed: a visitor's cached first page costs no query building at all.
  const query = () => db.entities.story.query.newest({ feed: 'all' });
  const cursor = options.cursor === undefined ? undefined : checkedCursor(options.cursor, query(), 'gsi1pk');
  return forVisitors(`new|${cursor ?? ''}`, options.viewer, async () => {
    const page = await query().go({ order: 'desc', limit: FEED_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    return { items: await storiesFor(db, page.data, options.viewer), nextCursor: page.cursor ?? null };
  });
}

/** One user's shares, newest first: one Query of the by-sharer index. */
export async function readUserFeed(
  db: Db,
  options: { userId: string; cursor?: string | undefined; viewer: Viewer | undefined },
): Promise<FeedAnswer> {
  const query = () => db.entities.story.query.bySharer({ sharerId: options.userId });
  const cursor = options.cursor === undefined ? undefined : checkedCursor(options.cursor, query(), 'gsi2pk');
  return forVisitors(`user|${options.userId}|${cursor ?? ''}`, options.viewer, async () => {
    const [page] = await Promise.all([
      query().go({ order: 'desc', limit: FEED_PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
      requireUser(db, { userId: options.userId }),
    ]);
    return { items: await storiesFor(db, page.data, options.viewer), nextCursor: page.cursor ?? null };
  });
}

/** The reader's timeline: one Query of their partition, one BatchGetItem of the stories. */
export async function readFollowingFeed(
  db: Db,
  options: { viewer: Viewer; cursor?: string | undefined; now: Date },
): Promise<StoryPage> {
  const query = db.entities.timelineEntry.query.byReader({ userId: options.viewer.userId });
  const cursor = checkedCursor(options.cursor, query, 'pk');
  const page = await query.go({ order: 'desc', limit: FEED_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  // The TTL can lag by days: an entry past its time is gone as far as the reader is concerned.
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  const live = page.data.filter((entry) => entry.expiresAt > nowSeconds);
  const stories = await getStories(
    db,
    live.map((entry) => entry.storyId),
  );
  return { items: await storiesFor(db, stories, options.viewer), nextCursor: page.cursor ?? null };
}

interface HotCursor {
  offset: number;
}

export function encodeHotCursor(cursor: HotCursor): string {
  return Buffer.from(JSON.stringify({ o: cursor.offset })).toString('base64url');
}

export function decodeHotCursor(cursor: string | undefined): HotCursor {
  if (cursor === undefined) return { offset: 0 };
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0 && o < 100_000) return { offset: o };
  } catch {
    // Falls through to the refusal below.
  }
  throw new InvalidCursor();
}

/** The last week's stories, hottest first (rankHot), as the job stores them. */
export async function rankHotStories(db: Db, now: Date): Promise<string[]> {
  const { data } = await db.entities.story.query
    .newest({ feed: 'all' })
    .gte({ createdAt: daysBefore(now, HOT_WINDOW_DAYS).toISOString() })
    .go({ order: 'desc', pages: 'all', limit: HOT_CANDIDATES_LIMIT });
  // A viral story's count is mostly in its shards: ranked by its whole count.
  return rankHot(await addShardedLikes(db, data), now);
}

/** The job: recomputes the hot order and stores it as one item. */
export async function storeHotList(db: Db, now: Date): Promise<number> {
  const storyIds = await rankHotStories(db, now);
  await db.entities.storyList.put({ list: HOT_LIST, storyIds, computedAt: now.toISOString() }).go({ response: 'none' });
  return storyIds.length;
}

/**
 * A page of the hot list: one GetItem, one BatchGetItem. Without a stored list (before the
 * job's first run, or after a run that found no stories) the page is ranked on the spot,
 * read-only: only the job stores it.
 */
export async function readHotFeed(
  db: Db,
  options: { cursor?: string | undefined; viewer: Viewer | undefined; now: Date },
): Promise<FeedAnswer> {
  const { offset } = decodeHotCursor(options.cursor);
  return forVisitors(`hot|${offset}`, options.viewer, async () => {
    const { data: list } = await db.entities.storyList.get({ list: HOT_LIST }).go();
    const order = list?.storyIds.length ? list.storyIds : await rankHotStories(db, options.now);
    const stories = await getStories(db, order.slice(offset, offset + FEED_PAGE_SIZE));
    const next = offset + FEED_PAGE_SIZE;
    return {
      items: await storiesFor(db, stories, options.viewer),
      nextCursor: next < order.length ? encodeHotCursor({ offset: next }) : null,
    };
  });
}

function timelineEntryOf(readerId: string, story: Pick<StoryItem, 'storyId' | 'createdAt' | 'sharerId'>) {
  return {
    userId: readerId,
    createdAt: story.createdAt,
    storyId: story.storyId,
    sharerId: story.sharerId,
    expiresAt: Math.floor(Date.parse(story.createdAt) / 1000) + TIMELINE_DAYS * 86_400,
  };
}

const timelineKey = (entry: { userId: string; createdAt: string; storyId: string }) =>
  `${entry.userId}#${entry.createdAt}#${entry.storyId}`;

/**
 * Puts a new story in the feed of everyone following its sharer: one Query of the followers,
 * then batch writes of 25. Synchronous, in the share request: at a few hundred followers it
 * costs tens of milliseconds; a sharer with tens of thousands would need a queue (not built).
 */
export async function fanOutStory(db: Db, story: StoryItem): Promise<number> {
  const { data: followers } = await db.entities.follow.query.byFollowed({ followedId: story.sharerId }).go({ pages: 'all' });
  const entries = followers.map((follow) => timelineEntryOf(follow.followerId, story));
  await writeBatch({
    items: entries,
    send: (items) => db.entities.timelineEntry.put(items).go(),
    keyOf: timelineKey,
    what: 'timeline entries',
  });
  return entries.length;
}

/** A new follower sees what the person followed shared in the last 30 days (up to 100 stories). */
export async function backfillTimeline(db: Db, options: { followerId: string; followedId: string; now: Date }): Promise<void> {
  const { data: stories } = await db.entities.story.query
    .bySharer({ sharerId: options.followedId })
    .gte({ createdAt: daysBefore(options.now, TIMELINE_DAYS).toISOString() })
    .go({ order: 'desc', limit: BACKFILL_LIMIT });
  await writeBatch({
    items: stories.map((story) => timelineEntryOf(options.followerId, story)),
    send: (items) => db.entities.timelineEntry.put(items).go(),
    keyOf: timelineKey,
    what: 'timeline entries',
  });
}

/** An unfollow takes the person's stories out of the reader's feed. */
export async function pruneTimeline(db: Db, options: { followerId: string; followedId: string }): Promise<void> {
  const { data: entries } = await db.entities.timelineEntry.query
    .byReader({ userId: options.followerId })
    .where(({ sharerId }, { eq }) => eq(sharerId, options.followedId))
    .go({ pages: 'all' });
  await writeBatch({
    items: entries.map((entry) => ({ userId: entry.userId, createdAt: entry.createdAt, storyId: entry.storyId })),
    send: (keys) => db.entities.timelineEntry.delete(keys).go(),
    keyOf: timelineKey,
    what: 'timeline entries',
  });
}
