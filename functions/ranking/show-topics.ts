import * as rankingRoutes from '../../shared/routes/ranking';
import { resolvePaging } from '../../shared/schemas/common';
import { createHandler } from '../lib/http/create-handler';
import { cachedAnswer, queryKey } from './lib/ranking-context';
import { topicsSeo } from './lib/seo';

export const handler = createHandler(rankingRoutes.showTopics, async ({ query }) =>
  cachedAnswer(queryKey('showTopics', query), async (manifest) => {
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
  }),
);
