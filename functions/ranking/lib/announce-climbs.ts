import type { Topic } from '../../../shared/schemas/ranking';
import type { BoardRanks } from '../../lib/db/entities/rank-history';
import { type PublicationWatchItem, WATCH_SHARDS } from '../../lib/db/entities/publication-watch';
import type { Db } from '../../lib/db/service';
import { enqueueFanOut, type FanOutEvent } from '../../lib/notification-fanout';
import { describeClimbs, detectClimbs } from './domain/climbs';
import { boardName, parseBoardId } from './domain/rank-history';
import { inGroups } from '../../lib/in-groups';

/** A followed publication as the run ranked it. */
export interface WatchedStanding {
  name: string;
  isActive: boolean;
  /** boardId -> its rank there. */
  ranks: BoardRanks;
}

/** Watches remembered at once after a run. */
const PATCH_CONCURRENCY = 16;

/** Every publication somebody follows: one Query per watch shard, in parallel. */
export async function readWatches(db: Db): Promise<PublicationWatchItem[]> {
  const shards = await Promise.all(
    Array.from({ length: WATCH_SHARDS }, (_, watchShard) =>
      db.entities.publicationWatch.query.byShard({ watchShard }).go({ pages: 'all' }),
    ),
  );
  return shards.flatMap(({ data }) => data);
}

/**
 * After a ranking run: finds each followed publication that entered a board's top 100, climbed
 * 10 places or more, or became active again, and hands the news to the notification-fanout
 * queue, one message per publication; its consumers tell the followers (a notification, pushed to
 * open tabs, and mailed to those who want notification emails). The job's part grows with the
 * publications followed, never with their followers. Then it remembers the ranks for the next
 * run. A run is looked at once per publication, and the notifications of one run's news are
 * written once however often their messages are delivered, so running it twice tells nobody twice.
 */
export async function announceClimbs(
  db: Db,
  input: {
    /** What the run made of these publications (those it did not rank are left out). */
    lookUp: (slugs: readonly string[]) => Map<string, WatchedStanding>;
    topics: readonly Topic[];
    runId: string;
    now: Date;
  },
): Promise<{ watched: number; withNews: number; queued: number }> {
  const topicNames = new Map(input.topics.map((topic) => [topic.tag, topic.name]));
  const nameOfBoard = (boardId: string) => {
    const board = parseBoardId(boardId);
    return board ? boardName(board, board.topic ? (topicNames.get(board.topic) ?? board.topic) : null) : boardId;
  };
  const watches = (await readWatches(db)).filter((watch) => (watch.followerCount ?? 0) > 0 && watch.runId !== input.runId);
  const standings = input.lookUp(watches.map((watch) => watch.slug));
  const events: FanOutEvent[] = [];
  const remembered: { slug: string; next: ReturnType<typeof detectClimbs>['next'] }[] = [];
  for (const watch of watches) {
    const standing = standings.get(watch.slug);
    if (!standing) continue;
    const previous =
      watch.lastRanks === undefined
        ? undefined
        : {
            lastRanks: watch.lastRanks as BoardRanks,
            baselines: (watch.baselines ?? {}) as BoardRanks,
            wasActive: watch.wasActive ?? standing.isActive,
          };
    const { events: climbs, next } = detectClimbs(previous, {
      ranks: standing.ranks,
      isActive: standing.isActive,
    });
    remembered.push({ slug: watch.slug, next });
    const detail = describeClimbs(climbs, nameOfBoard);
    if (!detail) continue;
    events.push({
      id: `publication-rose:${input.runId}:${watch.slug}`,
      kind: 'publication-rose',
      object: { type: 'publication', id: watch.slug, title: standing.name, detail },
      at: input.now.toISOString(),
      audience: { type: 'publication-followers', slug: watch.slug },
    });
  }
  // The news is queued before the ranks are remembered: a failed send leaves the watches as they
  // were, so the next run finds the same climbs and tells them then, rather than never.
  await enqueueFanOut(events);
  await inGroups(remembered, PATCH_CONCURRENCY, async ({ slug, next }) => {
    await db.entities.publicationWatch
      .patch({ slug })
      .set({ ...next, runId: input.runId, updatedAt: input.now.toISOString() })
      .go();
  });
  return { watched: watches.length, withNews: events.length, queued: events.length };
}
