import * as rankingRoutes from '../../shared/routes/ranking';
import type { PublicationArchiveMonth, PublicationBoardRank } from '../../shared/schemas/ranking';
import { getDb } from '../lib/db/service';
import type { DailyCounts } from '../lib/db/entities/follower-history';
import type { BoardRanks } from '../lib/db/entities/rank-history';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toDay } from './lib/domain/days';
import { compareBoards, parseBoardId } from './lib/domain/rank-history';
import { computeStanding } from './lib/domain/standing';
import { publicationSeo } from './lib/seo';
import { readPublicationPartition } from './lib/publication-partition';
import { historyStart, readRankHistory } from './lib/rank-history';
import type { Manifest } from './lib/board-reader';
import { cachedAnswer } from './lib/ranking-context';

function boardRanks(ranks: BoardRanks, manifest: Manifest): PublicationBoardRank[] {
  const topicNames = new Map(manifest.topics.map((topic) => [topic.tag, topic.name]));
  return Object.entries(ranks)
    .flatMap(([boardId, rank]) => {
      const board = parseBoardId(boardId);
      const total = manifest.boardTotals[boardId];
      if (!board || !total) return [];
      return [{ boardId, board, topicName: board.topic ? (topicNames.get(board.topic) ?? board.topic) : null, rank, total }];
    })
    .sort((a, b) => compareBoards(a.board, b.board));
}

export const handler = createHandler(rankingRoutes.getPublication, async ({ params }) =>
  cachedAnswer(`getPublication|${params.slug}`, async (manifest) => {
    const today = toDay(manifest.generatedAt);
    const since = historyStart(today);
    const db = getDb();
    const [{ publication, followerYears, archiveMonths }, rankHistory, sources] = await Promise.all([
      readPublicationPartition(db, params.slug),
      readRankHistory(db, { slug: params.slug, since, until: today }),
      db.entities.publicationSource.query.bySlug({ slug: params.slug }).go({ limit: 1 }),
    ]);
    const source = sources.data[0];
    if (!publication) throw new NotFound(`There is no publication with the slug '${params.slug}'.`);

    const history = followerYears
      .flatMap((year) =>
        Object.entries(year.days as DailyCounts).map(([monthDay, followers]) => ({ day: `${year.year}-${monthDay}`, followers })),
      )
      .filter(({ day }) => day >= since)
      .sort((a, b) => (a.day < b.day ? -1 : 1));
    // Today's ranks are the current run's (each run rewrites today's before it publishes).
    const latest = rankHistory.at(-1);
    const current = latest?.day === today ? latest.ranks : {};

    const { sparkline: _sparkline, ...standing } = computeStanding(publication, today);
    return {
      publication: {
        ...standing,
        description: publication.description ?? '',
        feedUrl: publication.feedUrl ?? null,
        firstSeenAt: publication.firstSeenDay,
        createdAt: publication.createdAt,
        updatedAt: publication.updatedAt,
        ranks: {
          followers: current['followers.all'] ?? null,
          growth: current['growth.all'] ?? null,
          activity: current['activity.all'] ?? null,
        },
      },
      boards: boardRanks(current, manifest),
      history,
      rankHistory,
      source: source
        ? {
            platform: source.platform,
            url: source.sourceUrl,
            status: source.status,
            lastCollectedAt: source.lastCollectedAt ?? null,
          }
        : null,
      archiveMonths: archiveMonths
        .map(({ month, placements }) => ({ month, placements: placements as PublicationArchiveMonth['placements'] }))
        .reverse(),
      seo: publicationSeo(publication.name, publication.description ?? '', standing.followersKnown ? standing.followers : null),
    };
  }),
);
