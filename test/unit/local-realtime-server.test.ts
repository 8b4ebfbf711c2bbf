import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { WebSocketEvent, WebSocketResult } from '../../functions/realtime/lib/websocket-event';
import { createLocalRealtime, type WebSocketHandler } from '../../infra/local/realtime-server';
import { LOCAL_REALTIME_MANAGEMENT_PATH, LOCAL_REALTIME_PATH, REALTIME_LIMITS } from '../../shared/realtime';

const servers: { server: Server; close: () => Promise<void> }[] = [];

afterEach(async () => {
  for (const { server, close } of servers.splice(0)) {
    await close();
    await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  }
});

interface Recorded {
  events: WebSocketEvent[];
}

/** The emulator on its own port, with handlers that record what they were called with. */
async function startRealtime(options: {
  connect?: (event: WebSocketEvent) => WebSocketResult;
  message?: (event: WebSocketEvent) => WebSocketResult;
  limits?: Partial<typeof REALTIME_LIMITS>;
}) {
  const recorded: Recorded = { events: [] };
  const record =
    (answer: (event: WebSocketEvent) => WebSocketResult): WebSocketHandler =>
    async (event) => {
      recorded.events.push(event);
      return answer(event);
    };
  const realtime = createLocalRealtime({
    handlers: new Map([
      ['$connect', record(options.connect ?? (() => ({ statusCode: 200 })))],
      ['$default', record(options.message ?? (() => ({ statusCode: 200 })))],
      ['$disconnect', record(() => ({ statusCode: 200 }))],
    ]),
    log: () => undefined,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!realtime.serveManagementApi(request, response, url)) response.writeHead(404).end();
  });
  server.on('upgrade', (request, socket, head) => {
    if (!realtime.handleUpgrade(request, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  servers.push({ server, close: realtime.close });
  const port = (server.address() as AddressInfo).port;
  const management = new ApiGatewayManagementApiClient({
    endpoint: `http://127.0.0.1:${port}${LOCAL_REALTIME_MANAGEMENT_PATH}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  return { port, realtime, recorded, management };
}

/** Opens a connection; answers the socket once open, or the status the handshake was refused with. */
function connect(port: number, query = '', headers: Record<string, string> = {}) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${LOCAL_REALTIME_PATH}${query}`, { headers });
  const messages: string[] = [];
  socket.on('message', (data) => messages.push(data.toString()));
  const closed = new Promise<{ code: number }>((resolveClose) => socket.on('close', (code) => resolveClose({ code })));
  const opened = new Promise<{ open: true } | { open: false; status: number }>((resolveOpen) => {
    socket.once('open', () => resolveOpen({ open: true }));
    socket.once('unexpected-response', (_request, response) => resolveOpen({ open: false, status: response.statusCode ?? 0 }));
    socket.once('error', () => undefined);
  });
  return { socket, messages, opened, closed };
}

const until = async (check: () => boolean, timeoutMs = 2_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolveWait) => setTimeout(resolveWait, 10));
  }
};

describe('the local WebSocket API', () => {
  it("calls $connect with the handshake's query and headers, as API Gateway does", async () => {
    // Prepare
    const { port, recorded } = await startRealtime({});

    // Act
    const client = connect(port, '?ticket=abc', { origin: 'http://localhost:3000' });
    const opened = await client.opened;

    // Assess
    expect(opened).toEqual({ open: true });
    const [event] = recorded.events;
    expect(event?.requestContext).toMatchObject({ routeKey: '$connect', eventType: 'CONNECT', stage: 'local' });
    expect(event?.queryStringParameters).toEqual({ ticket: 'abc' });
    expect(event?.headers?.origin).toBe('http://localhost:3000');
    client.socket.close();
  });

  it('refuses the handshake with the status $connect answered, and opens nothing', async () => {
    // Prepare
    const { port, realtime } = await startRealtime({ connect: () => ({ statusCode: 401, body: 'No ticket' }) });

    // Act
    const opened = await connect(port).opened;

    // Assess
    expect(opened).toEqual({ open: false, status: 401 });
    expect(realtime.openConnections()).toBe(0);
  });

  it("answers a message with $default's body, and calls $disconnect with the same connection id on close", async () => {
    // Prepare
    const { port, recorded } = await startRealtime({ message: (event) => ({ statusCode: 200, body: `echo ${event.body}` }) });
    const client = connect(port);
    await client.opened;

    // Act
    client.socket.send('{"action":"ping"}');
    await until(() => client.messages.length > 0);
    client.socket.close();
    await until(() => recorded.events.some((event) => event.requestContext.eventType === 'DISCONNECT'));

    // Assess
    expect(client.messages).toEqual(['echo {"action":"ping"}']);
    const ids = new Set(recorded.events.map((event) => event.requestContext.connectionId));
    expect(ids.size).toBe(1);
    expect(recorded.events.map((event) => event.requestContext.eventType)).toEqual(['CONNECT', 'MESSAGE', 'DISCONNECT']);
  });

  it('pushes through the management API with the AWS SDK, and answers GoneException for a connection that is not open', async () => {
    // Prepare
    const { port, recorded, management } = await startRealtime({});
    const client = connect(port);
    await client.opened;
    const connectionId = recorded.events[0]?.requestContext.connectionId ?? '';

    // Act
    await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode('hello') }));
    await until(() => client.messages.length > 0);
    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    const closed = await client.closed;
    const gone = await management
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode('again') }))
      .catch((error: unknown) => error);

    // Assess
    expect(client.messages).toEqual(['hello']);
    expect(closed.code).toBe(1000);
    expect(gone).toBeInstanceOf(GoneException);
  });

  it('refuses an unsigned management request, as IAM does', async () => {
    // Prepare
    const { port } = await startRealtime({});

    // Act
    const response = await fetch(`http://127.0.0.1:${port}${LOCAL_REALTIME_MANAGEMENT_PATH}/@connections/abc`, {
      method: 'POST',
      body: 'x',
    });

    // Assess
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
  });

  it("closes a connection after the idle timeout, and one whose frame is over API Gateway's 32 KB", async () => {
    // Prepare
    const { port } = await startRealtime({ limits: { idleTimeoutSeconds: 0.2 } });
    const idle = connect(port);
    const chatty = connect(port);
    await Promise.all([idle.opened, chatty.opened]);

    // Act
    chatty.socket.send('x'.repeat(REALTIME_LIMITS.maxFrameBytes + 1));
    const [idleClosed, chattyClosed] = await Promise.all([idle.closed, chatty.closed]);

    // Assess
    expect(idleClosed.code).toBe(1001);
    expect(chattyClosed.code).toBe(1009);
  });

  it('takes upgrades on its own path only', async () => {
    // Prepare
    const { port } = await startRealtime({});

    // Act
    const socket = new WebSocket(`ws://127.0.0.1:${port}/elsewhere`);
    const outcome = await new Promise<string>((resolveOutcome) => {
      socket.once('open', () => resolveOutcome('open'));
      socket.once('error', () => resolveOutcome('refused'));
    });

    // Assess
    expect(outcome).toBe('refused');
  });
});
