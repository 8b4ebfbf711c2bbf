import { routes } from '../../shared/routes';
import { createHandler } from '../lib/http/create-handler';
import { cachedAnswer } from './ranking-context';

export const handler = createHandler(routes.listTopics, async () =>
  cachedAnswer('listTopics', async (manifest) => ({ items: manifest.topics, generatedAt: manifest.generatedAt })),
);
