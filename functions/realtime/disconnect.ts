import { getDb } from '../lib/db/service';
import { closeConnection } from '../lib/realtime';
import { answer, type WebSocketEvent, type WebSocketResult } from './lib/websocket-event';

/** A tab closed or the connection dropped: nothing is pushed to it again. */
export const handler = async (event: WebSocketEvent): Promise<WebSocketResult> => {
  await closeConnection(getDb(), event.requestContext.connectionId);
  return answer(200);
};
