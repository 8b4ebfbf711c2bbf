import { rankHot } from '../../../shared/stories/hot-score';
import { siteHostOf } from '../../../shared/stories/site-host';
import type { SiteFeed, SiteSort } from '../../../shared/schemas/stories';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { checkedCursor } from '../../lib/db/cursors';
import { failedConditions } from '../../lib/db/errors';
import type { StoryItem } from '../../lib/db/entities/story';
import type { Db } from '../../lib/db/service';
import { NotFound } from '../../lib/errors';
import { decodeHotCursor, encodeHotCursor, FEED_PAGE_SIZE, type FeedAnswer, forVisitors } from './feeds';
import type { Viewer } from './story-view';
import { addShardedLikes } from './story-like-count';
import { getStories, storiesFor } from './story-relations';

/** A site's hot order ranks its stories of this many days (a site shares less often than the whole feed's week). */
export const SITE_HOT_WINDOW_DAYS = 30;
/**
 * And at most this many of them, the newest: the order is computed at each read (two
 * BatchGetItems), so it stays bounded however busy the site; a site sharing more than this in
 * a month ranks its latest 200.
 */
export const SITE_HOT_CANDIDATES = 200;

type WriteEntities = Parameters<Parameters<Db['transaction']['write']>[0]>[0];

/**
 * What a new story adds to its site, for the transaction that creates the story: its index
 * item, and one more in the site's count. None for a story whose address has no site name.
 * Stories are never deleted (account deletion and review keep them), so the count only grows.
 */
export function siteWrites(entities: WriteEntities, story: Pick<StoryItem, 'storyId' | 'canonicalUrl' | 'createdAt'>) {
  const host = siteHostOf(story.canonicalUrl);
  if (host === undefined) return [];
  return [
    entities.siteStory.create({ host, createdAt: story.createdAt, storyId: story.storyId }).commit(),
    entities.storySite.upsert({ host, lastSharedAt: story.createdAt }).add({ storyCount: 1 }).commit(),
  ];
}

/** A site's host and story count; undefined when no story was shared from it. */
export async function getStorySite(db: Db, host: string): Promise<{ host: string; storyCount: number } | undefined> {
  const { data } = await db.entities.storySite.get({ host }).go();
  return data ? { host: data.host, storyCount: data.storyCount } : undefined;
}

/**
 * The access pattern "stories of one host, newest first": one Query of the site's partition
 * (siteStory items, pk `$toppubs#host_{host}`), then one BatchGetItem of the stories. `host`
 * is normalised already (siteHostOf, or the route's schema); `since` keeps only stories
 * created at or after it. `nextCursor` continues the same list.
 */
export async function listSiteStories(
  db: Db,
  options: { host: string; cursor?: string | undefined; limit?: number; since?: Date },
): Promise<{ stories: StoryItem[]; nextCursor: string | null }> {
  const query = () => db.entities.siteStory.query.byHost({ host: options.host });
  const cursor = checkedCursor(options.cursor, query(), 'pk');
  const ranged = options.since ? query().gte({ createdAt: options.since.toISOString() }) : query();
  const page = await ranged.go({ order: 'desc', limit: options.limit ?? FEED_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  const stories = await getStories(
    db,
    page.data.map((entry) => entry.storyId),
  );
  return { stories, nextCursor: page.cursor ?? null };
}

/** A site's recent stories, hottest first, as the hot feed scores them (rankHot). */
export async function rankSiteStories(db: Db, options: { host: string; now: Date }): Promise<StoryItem[]> {
  const { stories } = await listSiteStories(db, {
    host: options.host,
    limit: SITE_HOT_CANDIDATES,
    since: new Date(options.now.getTime() - SITE_HOT_WINDOW_DAYS * 86_400_000),
  });
  const byId = new Map(stories.map((story) => [story.storyId, story]));
  return rankHot(await addShardedLikes(db, stories), options.now, SITE_HOT_CANDIDATES).flatMap(
    (storyId) => byId.get(storyId) ?? [],
  );
}

/** A page of a site's stories for the site page: 404 for a site nobody shared from. */
export async function readSiteFeed(
  db: Db,
  options: { host: string; sort: SiteSort; cursor?: string | undefined; viewer: Viewer | undefined; now: Date },
): Promise<FeedAnswer<SiteFeed>> {
  const { host, sort } = options;
  // Refused before any read: a new-list cursor sent with sort=hot is no offset, and the other way round.
  const offset = sort === 'hot' ? decodeHotCursor(options.cursor).offset : 0;
  if (sort === 'new') checkedCursor(options.cursor, db.entities.siteStory.query.byHost({ host }), 'pk');
  return forVisitors(`site|${sort}|${host}|${options.cursor ?? ''}`, options.viewer, async () => {
    const [site, page] = await Promise.all([
      getStorySite(db, host),
      sort === 'new'
        ? listSiteStories(db, { host, cursor: options.cursor })
        : rankSiteStories(db, { host, now: options.now }).then((ranked) => {
            const next = offset + FEED_PAGE_SIZE;
            return {
              stories: ranked.slice(offset, next),
              nextCursor: next < ranked.length ? encodeHotCursor({ offset: next }) : null,
            };
          }),
    ]);
    if (!site) throw new NotFound(`No story has been shared from ${host} yet.`);
    return { site, items: await storiesFor(db, page.stories, options.viewer), nextCursor: page.nextCursor };
  });
}

/**
 * The one-off backfill for stories shared before sites were kept: every story (the newest-first
 * index, page by page: no Scan) gets its site index item and adds one to its site's count, in
 * one transaction per story on condition that the index item is not there yet. So it may run
 * while people share, be stopped and run again: a story is never counted twice. Answers how
 * many stories it indexed this time.
 */
export async function indexStorySites(db: Db, options: { onProgress?: (indexed: number) => void } = {}): Promise<number> {
  let indexed = 0;
  let cursor: string | null = null;
  do {
    const page: { data: StoryItem[]; cursor: string | null } = await db.entities.story.query
      .newest({ feed: 'all' })
      .go({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const story of page.data) {
      if (siteHostOf(story.canonicalUrl) === undefined) continue;
      const added = await retryContendedWrite({ what: 'sharing stories' }, async () => {
        const result = await db.transaction.write((entities) => siteWrites(entities, story)).go();
        if (!result.canceled) return true;
        // Its index item is there: indexed already.
        if (failedConditions(result).includes(0)) return false;
        // It collided with a share from the same site: again.
        return lostRace(result);
      });
      if (added) indexed += 1;
    }
    options.onProgress?.(indexed);
    cursor = page.cursor;
  } while (cursor);
  return indexed;
}
