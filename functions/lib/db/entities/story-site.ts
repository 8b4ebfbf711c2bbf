import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/*
 * A site's stories live in one partition per site host (`$toppubs#host_{host}`, the host as
 * shared/stories/site-host.ts normalises it): the site's count, and one small index item per
 * story, newest last. Both are written in the transaction that creates the story. The story
 * item itself has no index left for this (gsi1 is the newest-first feed, gsi2 the sharer's
 * list), and a third index would change the table in every deployment; an index item of our
 * own costs the same one write per share and keeps the table as it is.
 */

/** A site that stories were shared from: how many, kept exact by an ADD in each share's transaction. */
export const createStorySiteEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storySite', version: '1' },
      attributes: {
        host: { type: 'string', required: true },
        storyCount: { type: 'number', required: true, default: 0 },
        lastSharedAt: { type: 'string', required: true },
      },
      indexes: {
        byHost: {
          pk: { field: 'pk', composite: ['host'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type StorySiteItem = EntityItem<ReturnType<typeof createStorySiteEntity>>;

/** One story of a site, in the site's partition by time: a site's page of stories is one Query, then a BatchGetItem. */
export const createSiteStoryEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'siteStory', version: '1' },
      attributes: {
        host: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        storyId: { type: 'string', required: true },
      },
      indexes: {
        byHost: {
          pk: { field: 'pk', composite: ['host'] },
          sk: { field: 'sk', composite: ['createdAt', 'storyId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type SiteStoryItem = EntityItem<ReturnType<typeof createSiteStoryEntity>>;
