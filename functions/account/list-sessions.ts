import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listSessions } from '../lib/sessions';

/** The caller's live sessions, newest first, the one making this call flagged. */
export const handler = createHandler(accountRoutes.listSessions, async ({ caller }) => {
  const sessions = await listSessions(getDb(), caller.userId);
  return { sessions: sessions.map((session) => ({ ...session, isCurrent: session.sessionId === caller.sessionId })) };
});
