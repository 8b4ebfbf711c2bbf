import { PUBLICATION_SHARDS } from '../../../lib/db/entities/publication';

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * A stable bucket in [0, buckets) for a slug. FNV-1a over the slug's UTF-16 code units: the
 * same slug lands in the same bucket in every runtime and release, and the spread is even.
 */
export function bucketOf(slug: string, buckets: number): number {
  let hash = FNV_OFFSET_BASIS;
  for (let index = 0; index < slug.length; index += 1) {
    hash ^= slug.charCodeAt(index);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return (hash >>> 0) % buckets;
}

/**
 * The byShard partition a publication lives in: a publication is never written to two shards,
 * and parallel shard Queries finish together.
 */
export function shardOf(slug: string): number {
  return bucketOf(slug, PUBLICATION_SHARDS);
}
