import * as rankingRoutes from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { readTopicsScreen } from './lib/topics-screen';

export const handler = createHandler(rankingRoutes.showTopics, async ({ query }) => readTopicsScreen(query));
