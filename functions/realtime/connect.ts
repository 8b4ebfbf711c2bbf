import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { logger } from '../lib/logger';
import { openConnection } from '../lib/realtime';
import { answer, type WebSocketEvent, type WebSocketResult } from './lib/websocket-event';

const config = getConfig();

/**
 * A browser opens a connection with the ticket the realtime client route gave it. Another
 * site's page could open one too, with a ticket it cannot have; its origin is refused anyway.
 */
export const handler = async (event: WebSocketEvent): Promise<WebSocketResult> => {
  const origin = event.headers?.origin ?? event.headers?.Origin;
  if (origin !== undefined && !config.allowedOrigins.includes(origin)) {
    return answer(403, 'Connections are accepted from this site only.');
  }
  const ticket = event.queryStringParameters?.ticket;
  if (!ticket) return answer(401, 'A realtime ticket is needed: ask /api/i/user/auth/login/pusher/client for one.');
  const outcome = await openConnection(getDb(), { connectionId: event.requestContext.connectionId, ticket });
  if (!outcome.opened) {
    logger.info('Realtime connection refused', { status: outcome.status });
    return answer(outcome.status, outcome.message);
  }
  return answer(200);
};
