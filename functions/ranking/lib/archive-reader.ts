import { monthName, monthOfDate } from '../../../shared/archive-months';
import type { ArchiveBoards, ArchiveTopic, MonthArchive } from '../../../shared/schemas/month-archive';
import { ARCHIVED_MONTHS_LIST } from '../../lib/db/entities/archived-month';
import { archiveScope } from '../../lib/db/entities/ranking-archive';
import type { Db } from '../../lib/db/service';
import { NotFound } from '../../lib/errors';
import { archiveSeo } from './seo';

/** Every archived month, newest first: one Query of the months' own partition. */
export async function listArchivedMonths(db: Db) {
  const { data } = await db.entities.archivedMonth.query
    .byListAndMonth({ list: ARCHIVED_MONTHS_LIST })
    .go({ pages: 'all', order: 'desc' });
  return data;
}

/**
 * A closed month's boards of one scope, as the archive page shows them: one GetItem. NotFound
 * for a month not over yet (said without a read), and for a month or topic not archived.
 */
export async function readMonthArchive(db: Db, input: { month: string; topic: string | null; now: Date }): Promise<MonthArchive> {
  const { month, topic } = input;
  const title = monthName(month);
  if (month >= monthOfDate(input.now)) {
    throw new NotFound(`${title} is not over yet: a month's rankings are archived once it closes.`);
  }
  const { data } = await db.entities.rankingArchive.get({ month, scope: archiveScope(topic) }).go();
  if (!data) {
    throw new NotFound(
      topic
        ? `No archived rankings of the topic '${topic}' in ${title}: the topic had no publications then, or the month is not archived.`
        : `The rankings of ${title} are not archived: only months with ranking history are, once they close.`,
    );
  }
  const scope = (data.topic ?? null) as ArchiveTopic | null;
  return {
    month,
    topic: scope,
    publicationCount: data.publicationCount,
    boards: data.boards as ArchiveBoards,
    topics: data.topics as ArchiveTopic[],
    archivedAt: data.archivedAt,
    seo: archiveSeo(title, scope?.name ?? null, data.publicationCount),
  };
}
