import { routes } from '../../shared/routes';
import { createHandler } from '../lib/http/create-handler';
import { readBoardPage } from './board-screen';
import { cachedAnswer, queryKey } from './ranking-context';

export const handler = createHandler(routes.loadGrowthPubs, async ({ query }) =>
  cachedAnswer(queryKey('loadGrowthPubs', query), () => readBoardPage('growth', query)),
);
