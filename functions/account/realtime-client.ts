import { userChannel } from '../../shared/realtime';
import * as ssoRoutes from '../../shared/routes/sso';
import { getDb } from '../lib/db/service';
import { Forbidden } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { issueRealtimeTicket } from '../lib/realtime';

/**
 * A ticket for the caller's own channel only: one for another person's would let the caller
 * watch their notifications arrive.
 */
export const handler = createHandler(ssoRoutes.realtimeClient, async ({ query, caller }) => {
  if (query.channel !== undefined && query.channel !== userChannel(caller.userId)) {
    throw new Forbidden('You can only listen on your own channel.');
  }
  return issueRealtimeTicket(getDb(), { userId: caller.userId });
});
