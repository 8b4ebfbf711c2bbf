import { ATTENTION_LIST_LIMIT, type AttentionAnswer, type AttentionSource } from '../../../../shared/schemas/suggestions';
import { SOURCE_SHARDS } from '../../../lib/db/entities/publication-source';
import type { Db } from '../../../lib/db/service';

const STATUS_ORDER: Record<AttentionSource['status'], number> = { flagged: 0, gone: 1, failing: 2 };

/** The name of the last snapshot, or null when there is none to read. */
function nameOf(lastSnapshot: string | undefined): string | null {
  if (!lastSnapshot) return null;
  try {
    const name: unknown = (JSON.parse(lastSnapshot) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * Every source the collector could not read lately, for a superuser to look into: flagged ones
 * (failing for a week) first, then gone ones (404 or 410 for a week, off the boards), then the
 * ones failing for less, the longest-failing first. Read shard by shard, as the planner reads
 * them; a healthy source is filtered out by DynamoDB before it is returned.
 */
export async function listSourcesNeedingAttention(db: Db): Promise<AttentionAnswer> {
  const shards = await Promise.all(
    Array.from({ length: SOURCE_SHARDS }, (_, collectShard) =>
      db.entities.publicationSource.query
        .byShard({ collectShard })
        .where(({ status }, { ne }) => ne(status, 'active'))
        .go({
          pages: 'all',
          attributes: ['slug', 'platform', 'sourceUrl', 'status', 'lastError', 'failingSince', 'lastCollectedAt', 'lastSnapshot'],
        }),
    ),
  );
  const counts = { failing: 0, flagged: 0, gone: 0 };
  const sources: AttentionSource[] = [];
  for (const source of shards.flatMap(({ data }) => data)) {
    if (source.status === 'active') continue;
    counts[source.status] += 1;
    sources.push({
      slug: source.slug,
      name: nameOf(source.lastSnapshot),
      platform: source.platform,
      url: source.sourceUrl,
      status: source.status,
      lastError: source.lastError ?? null,
      failingSince: source.failingSince ?? null,
      lastCollectedAt: source.lastCollectedAt ?? null,
    });
  }
  sources.sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      (a.failingSince ?? '~').localeCompare(b.failingSince ?? '~') ||
      a.slug.localeCompare(b.slug),
  );
  return { sources: sources.slice(0, ATTENTION_LIST_LIMIT), counts };
}
