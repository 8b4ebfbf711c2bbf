import * as rankingRoutes from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { readBoardScreen } from './lib/board-screen';
import { cachedAnswer, queryKey } from './lib/ranking-context';

export const handler = createHandler(rankingRoutes.showActivity, async ({ query }) =>
  cachedAnswer(queryKey('showActivity', query), () => readBoardScreen('activity', query)),
);
