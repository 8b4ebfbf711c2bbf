import { WebSocket } from 'ws';
import { type RealtimeServerMessage, realtimeServerMessageSchema } from '../../shared/schemas/realtime';
import { routes } from '../../shared/routes';
import type { ApiClient, Session } from './api-client';

export interface Listener {
  socket: WebSocket;
  messages: RealtimeServerMessage[];
  /** The next message that satisfies `match` (one already received counts). */
  next(match?: (message: RealtimeServerMessage) => boolean, timeoutMs?: number): Promise<RealtimeServerMessage>;
  close(): Promise<void>;
}

/**
 * Connects as the web app does: a ticket from the realtime client route, then the WebSocket it
 * names, from the app's own origin. Rejects with the handshake's status when it is refused.
 */
export async function listen(
  api: ApiClient,
  as: Session,
  options: { origin: string; /** Where the endpoint is, when the page's origin is another site's. */ site?: string },
): Promise<Listener> {
  const ticket = await api.call(routes.realtimeClient, { as });
  if (!ticket.ok) throw new Error(`No realtime ticket: ${ticket.status} ${ticket.text}`);
  return openListener(realtimeUrl(ticket.body.endpoint, ticket.body.ticket, options.site ?? options.origin), options.origin);
}

/** The endpoint is a path locally, resolved against the page's origin as the web app does. */
export function realtimeUrl(endpoint: string, ticket: string, origin: string): string {
  const url = new URL(endpoint, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  url.searchParams.set('ticket', ticket);
  return url.toString();
}

export function openListener(url: string, origin: string): Promise<Listener> {
  const socket = new WebSocket(url, { headers: { origin } });
  const messages: RealtimeServerMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(realtimeServerMessageSchema.parse(JSON.parse(data.toString())));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<void>((resolveClose) => socket.once('close', () => resolveClose()));
  const listener: Listener = {
    socket,
    messages,
    next: (match = () => true, timeoutMs = 5_000) =>
      new Promise((resolveNext, rejectNext) => {
        let seen = 0;
        const check = () => {
          for (; seen < messages.length; seen++) {
            const message = messages[seen] as RealtimeServerMessage;
            if (match(message)) {
              waiters.delete(check);
              clearTimeout(timer);
              resolveNext(message);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          rejectNext(new Error(`No matching realtime message in ${timeoutMs} ms (got ${JSON.stringify(messages)})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      socket.close();
      await closed;
    },
  };
  return new Promise((resolveOpen, rejectOpen) => {
    socket.once('open', () => resolveOpen(listener));
    socket.once('unexpected-response', (_request, response) =>
      rejectOpen(Object.assign(new Error(`Handshake refused: ${response.statusCode}`), { status: response.statusCode })),
    );
    socket.once('error', rejectOpen);
  });
}
