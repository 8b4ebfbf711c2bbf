import * as rankingRoutes from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { cachedAnswer } from './lib/ranking-context';

export const handler = createHandler(rankingRoutes.listTopics, async () =>
  cachedAnswer('listTopics', async (manifest) => ({ items: manifest.topics, generatedAt: manifest.generatedAt })),
);
