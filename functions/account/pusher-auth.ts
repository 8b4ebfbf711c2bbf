import * as ssoRoutes from '../../shared/routes/sso';
import { getConfig } from '../lib/config';
import { Forbidden, ServiceUnavailable } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { pusherChannelFor, signPusherAuth } from './lib/pusher';

const config = getConfig();

/**
 * Signs a realtime subscription (Pusher private-channel protocol) for the caller's own channel
 * only: a signature for any other channel would let one user read another's notifications.
 */
export const handler = createHandler(ssoRoutes.pusherAuth, async ({ query, caller }) => {
  if (!config.pusher) throw new ServiceUnavailable('Realtime messaging is not configured.');
  if (query.channel_name !== pusherChannelFor(caller.userId)) {
    throw new Forbidden('You can only subscribe to your own private channel.');
  }
  return { auth: signPusherAuth(config.pusher, query.socket_id, query.channel_name) };
});
