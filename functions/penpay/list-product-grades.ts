import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { productGrades } from './lib/shop-pages';

export const handler = createHandler(storeRoutes.listProductGrades, async ({ params, caller }) => {
  const answer = await productGrades(getDb(), params.productStockId, caller);
  // The merchant's own view shows their drafts: never to be kept by the edge cache for anyone else.
  return answer.personal ? reply(answer.body) : answer.body;
});
