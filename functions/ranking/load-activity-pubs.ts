import * as rankingRoutes from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { readBoardPage } from './lib/board-screen';
import { cachedAnswer, queryKey } from './lib/ranking-context';

export const handler = createHandler(rankingRoutes.loadActivityPubs, async ({ query }) =>
  cachedAnswer(queryKey('loadActivityPubs', query), () => readBoardPage('activity', query)),
);
