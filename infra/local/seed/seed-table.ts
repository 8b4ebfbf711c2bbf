import { PUBLICATION_SHARDS } from '../../../functions/lib/db/entities/publication';
import { writeBatch } from '../../../functions/lib/db/batches';
import type { Db } from '../../../functions/lib/db/service';
import type { SeedData } from './generate-publications';

export interface SeedProgress {
  kind: 'publications' | 'histories';
  written: number;
  total: number;
}

export interface SeedTableOptions {
  /** BatchWrite calls in flight at once. */
  concurrency?: number;
  onProgress?: (progress: SeedProgress) => void;
  /** Rounds of re-sending items DynamoDB left unprocessed before giving up. */
  maxAttempts?: number;
}

export interface SeedTableResult {
  publications: number;
  histories: number;
  publicationsMs: number;
  historiesMs: number;
}

/** A BatchWrite takes 25 items; a few rounds per progress report keeps reports frequent but cheap. */
const BATCH_SIZE = 25;
const BATCHES_PER_REPORT = 4;

/** Writes the generated data set with batched puts. Existing items with the same keys are replaced. */
export async function seedTable(
  db: Db,
  data: Pick<SeedData, 'publications' | 'histories'>,
  options: SeedTableOptions = {},
): Promise<SeedTableResult> {
  const settings = {
    concurrency: options.concurrency ?? 8,
    maxAttempts: options.maxAttempts ?? 6,
    onProgress: options.onProgress,
  };

  const publicationsStart = performance.now();
  await writeAll({
    ...settings,
    kind: 'publications',
    items: data.publications,
    keyOf: (item: { slug: string }) => item.slug,
    put: (batch, concurrent) => db.entities.publication.put(batch).go({ concurrent }),
  });
  const historiesStart = performance.now();
  await writeAll({
    ...settings,
    kind: 'histories',
    items: data.histories,
    keyOf: (item: { slug: string; year: string }) => `${item.slug}#${item.year}`,
    put: (batch, concurrent) => db.entities.followerHistory.put(batch).go({ concurrent }),
  });
  const end = performance.now();

  return {
    publications: data.publications.length,
    histories: data.histories.length,
    publicationsMs: Math.round(historiesStart - publicationsStart),
    historiesMs: Math.round(end - historiesStart),
  };
}

interface WriteAllInput<Key, Item extends Key> {
  kind: SeedProgress['kind'];
  items: Item[];
  keyOf: (key: Key) => string;
  put: (batch: Item[], concurrent: number) => Promise<{ unprocessed: Key[] }>;
  concurrency: number;
  maxAttempts: number;
  onProgress: ((progress: SeedProgress) => void) | undefined;
}

async function writeAll<Key, Item extends Key>(input: WriteAllInput<Key, Item>): Promise<void> {
  const chunkSize = BATCH_SIZE * input.concurrency * BATCHES_PER_REPORT;
  for (let start = 0; start < input.items.length; start += chunkSize) {
    await writeBatch({
      items: input.items.slice(start, start + chunkSize),
      send: (batch) => input.put(batch, input.concurrency),
      keyOf: input.keyOf,
      what: input.kind,
      options: { maxAttempts: input.maxAttempts },
    });
    input.onProgress?.({
      kind: input.kind,
      written: Math.min(start + chunkSize, input.items.length),
      total: input.items.length,
    });
  }
}

/**
 * True when no publication exists. Probes one shard at a time with a one-item Query and stops at
 * the first hit, so a seeded table costs one tiny read and an empty one PUBLICATION_SHARDS.
 */
export async function isTableEmptyOfPublications(db: Db): Promise<boolean> {
  for (let shard = 0; shard < PUBLICATION_SHARDS; shard += 1) {
    const { data } = await db.entities.publication.query.byShard({ shard }).go({ limit: 1, attributes: ['slug'] });
    if (data.length > 0) return false;
  }
  return true;
}
