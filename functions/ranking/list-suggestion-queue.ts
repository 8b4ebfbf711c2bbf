import * as rankingRoutes from '../../shared/routes/ranking';
import { checkedCursor } from '../lib/db/cursors';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { SUGGESTION_PAGE_SIZE, suggestionView } from './lib/suggestions';

export const handler = createHandler(rankingRoutes.listSuggestionQueue, async ({ query }) => {
  const queue = getDb().entities.publicationSuggestion.query.byStatus({ status: 'pending' });
  const cursor = checkedCursor(query.cursor, queue, 'gsi1pk');
  const page = await queue.go({ order: 'asc', limit: SUGGESTION_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  return { items: page.data.map(suggestionView), nextCursor: page.cursor ?? null };
});
