import * as rankingRoutes from '../../shared/routes/ranking';
import { checkedCursor } from '../lib/db/cursors';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { SUGGESTION_PAGE_SIZE, suggestionView } from './lib/suggestions';

export const handler = createHandler(rankingRoutes.listMySuggestions, async ({ query, caller }) => {
  const mine = getDb().entities.publicationSuggestion.query.bySuggester({ suggestedBy: caller.userId });
  const cursor = checkedCursor(query.cursor, mine, 'gsi2pk');
  const page = await mine.go({ order: 'desc', limit: SUGGESTION_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  return { items: page.data.map(suggestionView), nextCursor: page.cursor ?? null };
});
