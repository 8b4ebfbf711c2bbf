import * as rankingRoutes from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { readBoardScreen } from './lib/board-screen';
import { cachedAnswer, queryKey } from './lib/ranking-context';

export const handler = createHandler(rankingRoutes.showGrowth, async ({ query }) =>
  cachedAnswer(queryKey('showGrowth', query), () => readBoardScreen('growth', query)),
);
