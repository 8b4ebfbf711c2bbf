import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import {
  LOCAL_REALTIME_MANAGEMENT_PATH,
  LOCAL_REALTIME_PATH,
  REALTIME_LIMITS,
  type RealtimeHandler,
} from '../../shared/realtime';
import type { WebSocketEvent, WebSocketResult } from '../../functions/realtime/lib/websocket-event';

export type WebSocketHandler = (event: WebSocketEvent) => Promise<WebSocketResult>;

/** The management API refuses bodies over 128 KB. */
const MAX_POST_BYTES = 128 * 1024;
const CONNECTION_PATH = new RegExp(`^${LOCAL_REALTIME_MANAGEMENT_PATH}/@connections/([^/]+)$`);

interface LiveConnection {
  socket: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  idleTimer: NodeJS.Timeout;
  lifeTimer: NodeJS.Timeout;
}

export interface LocalRealtimeOptions {
  handlers: ReadonlyMap<RealtimeHandler['routeKey'], WebSocketHandler>;
  log: (line: string) => void;
  /** API Gateway's idle timeout and connection lifetime; tests shorten them. */
  limits?: Partial<typeof REALTIME_LIMITS>;
}

/**
 * API Gateway's WebSocket API on the local runtime's own port: upgrades on LOCAL_REALTIME_PATH
 * call the same `$connect` / `$default` / `$disconnect` functions AWS would, with events of the
 * same shape, and functions push through an emulated management API (`@connections/{id}`), so
 * the code that pushes is the code that runs in AWS. API Gateway's limits hold here too: a
 * refused `$connect` refuses the handshake with its status, frames over 32 KB close the
 * connection, and it is closed after 10 idle minutes or 2 hours in all.
 */
export function createLocalRealtime(options: LocalRealtimeOptions) {
  const limits = { ...REALTIME_LIMITS, ...options.limits };
  const server = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes });
  const live = new Map<string, LiveConnection>();

  const eventFor = (
    routeKey: RealtimeHandler['routeKey'],
    connectionId: string,
    extra: Partial<WebSocketEvent> & { connectedAt: Date; sourceIp: string },
  ): WebSocketEvent => {
    const { connectedAt, sourceIp, ...rest } = extra;
    const eventType = routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE';
    return {
      isBase64Encoded: false,
      ...rest,
      requestContext: {
        routeKey,
        eventType,
        messageId: eventType === 'MESSAGE' ? randomUUID() : undefined,
        extendedRequestId: randomUUID(),
        requestTimeEpoch: Date.now(),
        requestTime: new Date().toUTCString(),
        messageDirection: 'IN',
        stage: 'local',
        connectedAt: connectedAt.getTime(),
        requestId: randomUUID(),
        domainName: 'localhost',
        connectionId,
        apiId: 'local',
        identity: { sourceIp },
      },
    } as WebSocketEvent;
  };

  const invoke = async (routeKey: RealtimeHandler['routeKey'], event: WebSocketEvent): Promise<WebSocketResult> => {
    const handler = options.handlers.get(routeKey);
    if (!handler) return { statusCode: 200 };
    try {
      return await handler(event);
    } catch (error) {
      options.log(`realtime ${routeKey} failed: ${(error as Error).stack ?? String(error)}`);
      return { statusCode: 500, body: 'Internal server error' };
    }
  };

  const touch = (connectionId: string) => {
    const connection = live.get(connectionId);
    if (!connection) return;
    connection.lastActiveAt = new Date();
    connection.idleTimer.refresh();
  };

  const refuseHandshake = (socket: Duplex, status: number, body: string) => {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  const accept = (request: IncomingMessage, socket: Duplex, head: Buffer, connectionId: string, connectedAt: Date) => {
    server.handleUpgrade(request, socket, head, (webSocket) => {
      const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
      const connection: LiveConnection = {
        socket: webSocket,
        connectedAt,
        lastActiveAt: connectedAt,
        sourceIp,
        idleTimer: setTimeout(() => webSocket.close(1001, 'Going away'), limits.idleTimeoutSeconds * 1000),
        lifeTimer: setTimeout(() => webSocket.close(1001, 'Going away'), limits.maxConnectionSeconds * 1000),
      };
      connection.idleTimer.unref();
      connection.lifeTimer.unref();
      live.set(connectionId, connection);
      webSocket.on('message', (data, isBinary) => {
        touch(connectionId);
        const body = isBinary ? Buffer.from(data as Buffer).toString('base64') : data.toString();
        void invoke(
          '$default',
          eventFor('$default', connectionId, { body, isBase64Encoded: isBinary, connectedAt, sourceIp }),
        ).then((result) => {
          // API Gateway sends a route's answer back only when the route has a route response, as $default does.
          if (result.body !== undefined && webSocket.readyState === WebSocket.OPEN) webSocket.send(result.body);
        });
      });
      webSocket.on('close', () => {
        clearTimeout(connection.idleTimer);
        clearTimeout(connection.lifeTimer);
        live.delete(connectionId);
        void invoke('$disconnect', eventFor('$disconnect', connectionId, { connectedAt, sourceIp }));
      });
      webSocket.on('error', () => webSocket.terminate());
    });
  };

  /** Takes an upgrade on the realtime path; answers false for any other path. */
  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== LOCAL_REALTIME_PATH) return false;
    const connectionId = randomBytes(12).toString('base64');
    const connectedAt = new Date();
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
    );
    const queryStringParameters = Object.fromEntries(url.searchParams);
    void invoke(
      '$connect',
      eventFor('$connect', connectionId, {
        headers,
        ...(url.search ? { queryStringParameters } : {}),
        connectedAt,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      }),
    ).then((result) => {
      const status = result.statusCode ?? 200;
      if (socket.destroyed) {
        void invoke('$disconnect', eventFor('$disconnect', connectionId, { connectedAt, sourceIp: '127.0.0.1' }));
      } else if (status >= 200 && status < 300) {
        accept(request, socket, head, connectionId, connectedAt);
      } else {
        refuseHandshake(socket, status, result.body ?? '');
      }
    });
    return true;
  };

  const answerJson = (response: ServerResponse, status: number, body?: object, errorType?: string) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
    });
    response.end(body ? JSON.stringify(errorType ? { ...body, __type: errorType } : body) : undefined);
  };

  /**
   * The management API: POST sends to a connection, GET describes it, DELETE closes it; an id
   * that is not connected (yet or any more) is 410 GoneException. Requests must be signed, as
   * IAM requires: only a function given the endpoint (the realtime capability) knows it is here.
   */
  const serveManagementApi = (request: IncomingMessage, response: ServerResponse, url: URL): boolean => {
    if (url.pathname !== LOCAL_REALTIME_MANAGEMENT_PATH && !url.pathname.startsWith(`${LOCAL_REALTIME_MANAGEMENT_PATH}/`)) {
      return false;
    }
    const match = CONNECTION_PATH.exec(url.pathname);
    if (!String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) {
      answerJson(response, 403, { message: 'Missing Authentication Token' }, 'ForbiddenException');
      return true;
    }
    const connectionId = match ? decodeURIComponent(match[1] ?? '') : '';
    const connection = live.get(connectionId);
    if (!match || !['GET', 'POST', 'DELETE'].includes(request.method ?? '')) {
      answerJson(response, 404, { message: 'Not Found' }, 'NotFoundException');
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_POST_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (!connection || connection.socket.readyState !== WebSocket.OPEN) {
        answerJson(response, 410, { message: `Connection ${connectionId} is gone` }, 'GoneException');
      } else if (request.method === 'POST' && size > MAX_POST_BYTES) {
        answerJson(response, 413, { message: 'Request entity too large' }, 'PayloadTooLargeException');
      } else if (request.method === 'POST') {
        connection.socket.send(Buffer.concat(chunks).toString('utf8'));
        touch(connectionId);
        answerJson(response, 200);
      } else if (request.method === 'DELETE') {
        connection.socket.close(1000, 'Closed by the server');
        answerJson(response, 204);
      } else {
        answerJson(response, 200, {
          connectedAt: connection.connectedAt.toISOString(),
          lastActiveAt: connection.lastActiveAt.toISOString(),
          identity: { sourceIp: connection.sourceIp, userAgent: '' },
        });
      }
    });
    return true;
  };

  return {
    handleUpgrade,
    serveManagementApi,
    /** How many connections are open (tests, the bench). */
    openConnections: () => live.size,
    close: async () => {
      for (const connection of live.values()) connection.socket.terminate();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}
