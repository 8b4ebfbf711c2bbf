import { monthName, monthOfDate } from '../../shared/archive-months';
import * as rankingRoutes from '../../shared/routes/ranking';
import type { ArchiveBoards, ArchiveTopic } from '../../shared/schemas/month-archive';
import { archiveScope } from '../lib/db/entities/ranking-archive';
import { getDb } from '../lib/db/service';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { archiveSeo } from './lib/seo';

/** One GetItem: the month's boards of the scope asked for, with the month's topics. */
export const handler = createHandler(rankingRoutes.showArchiveMonth, async ({ params, query }) => {
  const month = `${params.year}-${params.month}`;
  const title = monthName(month);
  // A month not over yet has no archive: said without a read.
  if (month >= monthOfDate(new Date())) {
    throw new NotFound(`${title} is not over yet: a month's rankings are archived once it closes.`);
  }
  const { data } = await getDb()
    .entities.rankingArchive.get({ month, scope: archiveScope(query.topic) })
    .go();
  if (!data) {
    throw new NotFound(
      query.topic
        ? `No archived rankings of the topic '${query.topic}' in ${title}: the topic had no publications then, or the month is not archived.`
        : `The rankings of ${title} are not archived: only months with ranking history are, once they close.`,
    );
  }
  const topic = (data.topic ?? null) as ArchiveTopic | null;
  return {
    month,
    topic,
    publicationCount: data.publicationCount,
    boards: data.boards as ArchiveBoards,
    topics: data.topics as ArchiveTopic[],
    archivedAt: data.archivedAt,
    seo: archiveSeo(title, topic?.name ?? null, data.publicationCount),
  };
});
