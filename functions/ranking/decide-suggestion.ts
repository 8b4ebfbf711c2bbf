import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { decideSuggestion } from './lib/suggestions';

export const handler = createHandler(rankingRoutes.decideSuggestion, async ({ params, caller }) => ({
  suggestion: await decideSuggestion(getDb(), {
    suggestionId: params.id,
    decision: params.decision,
    superuserId: caller.userId,
    now: new Date(),
  }),
  alreadyKnown: false,
}));
