import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** The scope of the archive of every publication; a topic's scope is `topic:{tag}`. */
export const OVERALL_ARCHIVE_SCOPE = 'overall';

export function archiveScope(topic: string | null | undefined): string {
  return topic ? `topic:${topic}` : OVERALL_ARCHIVE_SCOPE;
}

/**
 * One month's boards of one scope (every publication, or one topic): written once when the
 * month is archived, never changed, so an archive page is one GetItem. A scope per item, not a
 * month per item: the month's hundred topics of three boards of 50 rows are a few MB, and an
 * item holds 400 KB; one scope is ~40 KB. Each item carries the month's topic list too, so the
 * page's topic picker needs no second read.
 */
export const createRankingArchiveEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'rankingArchive', version: '1' },
      attributes: {
        /** YYYY-MM (UTC). */
        month: { type: 'string', required: true },
        scope: { type: 'string', required: true },
        /** ArchiveTopic, or null for the overall scope. */
        topic: { type: 'any' },
        publicationCount: { type: 'number', required: true },
        /** ArchiveBoards: followers, growth and activity rows. */
        boards: { type: 'any', required: true },
        /** ArchiveTopic[]: every topic of the month, the largest first. */
        topics: { type: 'any', required: true },
        archivedAt: { type: 'string', required: true },
      },
      indexes: {
        byMonthAndScope: {
          pk: { field: 'pk', composite: ['month'] },
          sk: { field: 'sk', composite: ['scope'] },
        },
      },
    },
    config,
  );

export type RankingArchiveItem = EntityItem<ReturnType<typeof createRankingArchiveEntity>>;
