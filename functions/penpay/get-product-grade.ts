import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { gradePage } from './lib/shop-pages';

export const handler = createHandler(storeRoutes.getProductGrade, async ({ params, caller }) => {
  const answer = await gradePage(getDb(), params.productStockId, params.productStockGradeId, caller);
  // The merchant's own view shows their drafts: never to be kept by the edge cache for anyone else.
  return answer.personal ? reply(answer.body) : answer.body;
});
