import { rankingRoutes } from '../../shared/routes/ranking';
import { createHandler } from '../lib/http/create-handler';
import { readBoardScreen } from './board-screen';
import { cachedAnswer, queryKey } from './ranking-context';

export const handler = createHandler(rankingRoutes.showGrowth, async ({ query }) =>
  cachedAnswer(queryKey('showGrowth', query), () => readBoardScreen('growth', query)),
);
