import { type RealtimeServerMessage, realtimeClientMessageSchema } from '../../shared/schemas/realtime';
import { answer, type WebSocketEvent, type WebSocketResult } from './lib/websocket-event';

const reply = (message: RealtimeServerMessage) => answer(200, JSON.stringify(message));

function parsed(body: string | undefined): unknown {
  try {
    return JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
}

/**
 * What a client sends up its connection. Today only a ping, which keeps a quiet connection
 * inside API Gateway's idle timeout and tells the client the connection still works.
 */
export const handler = async (event: WebSocketEvent): Promise<WebSocketResult> => {
  const message = realtimeClientMessageSchema.safeParse(parsed(event.body));
  if (!message.success) return reply({ type: 'error', message: 'Send {"action":"ping"}: nothing else is understood.' });
  return reply({ type: 'pong' });
};
