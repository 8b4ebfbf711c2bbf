import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SOURCE_PLATFORMS } from '../../../../shared/schemas/ranking';
import { SUGGESTION_STATUSES } from '../../../../shared/schemas/suggestions';
import { SERVICE_NAME } from './service-name';

/**
 * A publication a user suggested, keyed by an id derived from its platform's canonical id: a
 * second suggestion of the same publication (the same user's double click, or someone else,
 * under another of its addresses) finds the first one. It keeps the snapshot read when it was
 * suggested, which accepting it stores as the publication's first. gsi1 lists them by status,
 * oldest first (the pending ones are the review queue); gsi2 lists one person's, newest first.
 */
export const createPublicationSuggestionEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'publicationSuggestion', version: '1' },
      attributes: {
        suggestionId: { type: 'string', required: true },
        canonicalId: { type: 'string', required: true },
        platform: { type: SOURCE_PLATFORMS, required: true },
        sourceUrl: { type: 'string', required: true },
        /** The snapshot as read when suggested (JSON). */
        snapshot: { type: 'string', required: true },
        /** The validators of the documents that snapshot was read from (JSON), for the source it may become. */
        validators: { type: 'string' },
        status: { type: SUGGESTION_STATUSES, required: true },
        suggestedBy: { type: 'string', required: true },
        /** The publication's slug, once accepted. */
        slug: { type: 'string' },
        /** 'auto', or the superuser who decided. */
        decidedBy: { type: 'string' },
        decidedAt: { type: 'string' },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['suggestionId'] },
          sk: { field: 'sk', composite: [] },
        },
        byStatus: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['status'] },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'suggestionId'], casing: 'none' },
        },
        bySuggester: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['suggestedBy'], casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['createdAt', 'suggestionId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type PublicationSuggestionItem = EntityItem<ReturnType<typeof createPublicationSuggestionEntity>>;
