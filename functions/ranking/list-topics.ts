import * as rankingRoutes from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { topicCounts } from './lib/domain/boards';
import { cachedAnswer } from './lib/ranking-context';

export const handler = createHandler(rankingRoutes.listTopics, async () =>
  cachedAnswer('listTopics', async (manifest) => ({
    items: manifest.topics.map(topicCounts),
    generatedAt: manifest.generatedAt,
  })),
);
