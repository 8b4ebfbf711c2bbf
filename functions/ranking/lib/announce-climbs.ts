import type { Topic } from '../../../shared/schemas/ranking';
import { announceNotification } from '../../lib/announce-notification';
import type { BoardRanks } from '../../lib/db/entities/rank-history';
import { type PublicationWatchItem, WATCH_SHARDS } from '../../lib/db/entities/publication-watch';
import type { Db } from '../../lib/db/service';
import { logger } from '../../lib/logger';
import { PLATFORM_ACTOR_ID, recordNotification } from '../../lib/notifications';
import { describeClimbs, detectClimbs } from './domain/climbs';
import { boardName, parseBoardId } from './domain/rank-history';
import type { Standing } from './domain/standing';
import { listPublicationFollowers } from './publication-follows';

/** Followers told at once: each is a few reads and one transaction. */
const NOTIFY_CONCURRENCY = 8;

/** Every publication somebody follows: one Query per watch shard, in parallel. */
export async function readWatches(db: Db): Promise<PublicationWatchItem[]> {
  const shards = await Promise.all(
    Array.from({ length: WATCH_SHARDS }, (_, watchShard) =>
      db.entities.publicationWatch.query.byShard({ watchShard }).go({ pages: 'all' }),
    ),
  );
  return shards.flatMap(({ data }) => data);
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(work));
}

/**
 * After a ranking run: tells the followers of each followed publication that entered a board's
 * top 100, climbed 10 places or more, or became active again (a notification, pushed to open
 * tabs, and mailed to those who want notification emails), and remembers the ranks for the next
 * run. A run is looked at once per publication, so running it twice tells nobody twice.
 */
export async function announceClimbs(
  db: Db,
  input: {
    ranksBySlug: ReadonlyMap<string, BoardRanks>;
    standings: ReadonlyMap<string, Standing>;
    topics: readonly Topic[];
    runId: string;
    now: Date;
  },
): Promise<{ watched: number; withNews: number; notified: number }> {
  const topicNames = new Map(input.topics.map((topic) => [topic.tag, topic.name]));
  const nameOfBoard = (boardId: string) => {
    const board = parseBoardId(boardId);
    return board ? boardName(board, board.topic ? (topicNames.get(board.topic) ?? board.topic) : null) : boardId;
  };
  const watches = (await readWatches(db)).filter((watch) => (watch.followerCount ?? 0) > 0 && watch.runId !== input.runId);
  let withNews = 0;
  let notified = 0;
  for (const watch of watches) {
    const standing = input.standings.get(watch.slug);
    if (!standing) continue;
    const previous =
      watch.lastRanks === undefined
        ? undefined
        : {
            lastRanks: watch.lastRanks as BoardRanks,
            baselines: (watch.baselines ?? {}) as BoardRanks,
            wasActive: watch.wasActive ?? standing.isActive,
          };
    const { events, next } = detectClimbs(previous, {
      ranks: input.ranksBySlug.get(watch.slug) ?? {},
      isActive: standing.isActive,
    });
    await db.entities.publicationWatch
      .patch({ slug: watch.slug })
      .set({ ...next, runId: input.runId, updatedAt: input.now.toISOString() })
      .go();
    const detail = describeClimbs(events, nameOfBoard);
    if (!detail) continue;
    withNews += 1;
    const event = {
      kind: 'publication-rose' as const,
      actorId: PLATFORM_ACTOR_ID,
      object: { type: 'publication' as const, id: watch.slug, title: standing.name, detail },
    };
    const followers = await listPublicationFollowers(db, { slug: watch.slug });
    await inBatches(followers, NOTIFY_CONCURRENCY, async (recipientId) => {
      try {
        const writes = await recordNotification(db, { ...event, recipientId, at: input.now, byPlatform: true });
        await announceNotification(db, writes, event);
        if (writes) notified += 1;
      } catch (error) {
        // One recipient's failure must not keep the others from hearing the news.
        logger.warn('Could not tell a follower about a publication', { slug: watch.slug, errorName: (error as Error).name });
      }
    });
  }
  return { watched: watches.length, withNews, notified };
}
