import * as storyRoutes from '../../shared/routes/stories';
import { createHandler } from '../lib/http/create-handler';
import { requireShareableUrl } from './lib/share-url';

export const handler = createHandler(storyRoutes.checkStoryUrl, async ({ query }) => ({
  ok: true as const,
  url: requireShareableUrl(query.url),
}));
