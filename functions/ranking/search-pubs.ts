import * as rankingRoutes from '../../shared/routes/ranking';
import type { RankedPublication } from '../../shared/schemas/ranking';
import { resolvePaging } from '../../shared/schemas/common';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { buildSearchIndex, type SearchIndex, searchPublications } from './lib/domain/search';
import { computeStanding } from './lib/domain/standing';
import { toDay } from './lib/domain/days';
import { cachedAnswer, getBoardReader, queryKey } from './lib/ranking-context';
import { readPublications } from './lib/publication-reads';

let index: { runId: string; value: SearchIndex } | undefined;

async function currentIndex(): Promise<SearchIndex> {
  const { entries, manifest } = await getBoardReader().readSearchIndex();
  if (index?.runId !== manifest.runId) index = { runId: manifest.runId, value: buildSearchIndex(entries) };
  return index.value;
}

export const handler = createHandler(rankingRoutes.searchPubs, async ({ query }) =>
  cachedAnswer(queryKey('searchPubs', { ...query, q: query.q.toLowerCase() }), async (manifest) => {
    const topicPosition = query.topic ? manifest.topics.findIndex((topic) => topic.tag === query.topic) : null;
    const paging = resolvePaging({ ...query, sortOrder: 'desc' }, 0);
    // An unknown topic (or one no publication has any more) matches nothing: there is nothing to refuse.
    const { matches, total } =
      topicPosition === -1
        ? { matches: [], total: 0 }
        : searchPublications(await currentIndex(), query.q, {
            from: paging.from,
            limit: paging.limit,
            activeOnly: query.active,
            topicPosition,
          });
    const bySlug = await readPublications(
      getDb(),
      matches.map(([slug]) => slug),
    );
    const today = toDay(manifest.generatedAt);
    const items: RankedPublication[] = matches.flatMap(([slug, , , followersRank]) => {
      const publication = bySlug.get(slug);
      return publication ? [{ rank: followersRank, ...computeStanding(publication, today) }] : [];
    });
    return {
      query: query.q,
      items,
      total,
      pageInfo: resolvePaging({ ...query, sortOrder: 'desc' }, total),
      generatedAt: manifest.generatedAt,
    };
  }),
);
