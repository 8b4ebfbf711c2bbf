import { resolvePaging } from '../../../shared/schemas/common';
import type { topicsPageQuerySchema } from '../../../shared/schemas/ranking';
import type * as z from '../../../shared/zod';
import { cachedAnswer, queryKey } from './ranking-context';
import { topicsSeo } from './seo';

/**
 * The topics screen for one page of the list, built once per ranking run and query: what
 * `GET show/topics` answers, and what the page rendered for crawlers shows and carries.
 */
export function readTopicsScreen(query: z.output<typeof topicsPageQuerySchema>) {
  return cachedAnswer(queryKey('showTopics', query), async (manifest) => {
    const pageInfo = resolvePaging(query, manifest.topics.length);
    const ordered = query.sortOrder === 'desc' ? manifest.topics : [...manifest.topics].reverse();
    return {
      seo: topicsSeo(manifest.topics.length),
      topics: {
        // A manifest written before topics kept their leaders has none until the next run.
        items: ordered
          .slice(pageInfo.from, pageInfo.from + pageInfo.limit)
          .map((topic) => ({ ...topic, leaders: topic.leaders ?? [] })),
        pageInfo,
        generatedAt: manifest.generatedAt,
      },
    };
  });
}
