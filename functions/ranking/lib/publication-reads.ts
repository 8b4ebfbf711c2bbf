import { getBatch } from '../../lib/db/batches';
import type { PublicationItem } from '../../lib/db/entities/publication';
import type { Db } from '../../lib/db/service';

/**
 * The stored publications of these slugs, by slug (one unknown is left out). Keys DynamoDB
 * leaves unprocessed under load are asked again, so a list never drops a publication for it,
 * and a cached answer never keeps one missing.
 */
export async function readPublications(db: Db, slugs: readonly string[]): Promise<Map<string, PublicationItem>> {
  const found = await getBatch({
    keys: [...new Set(slugs)].map((slug) => ({ slug })),
    send: (keys) => db.entities.publication.get(keys).go(),
    what: 'publications',
  });
  return new Map(found.map((publication) => [publication.slug, publication]));
}
