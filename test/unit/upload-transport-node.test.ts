import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeTransport, nodeTransport } from '../../web/src/lib/uploads/upload-transport-node';
import { TransportNetworkError } from '../../web/src/lib/uploads/upload-transport';

const MIB = 1024 * 1024;

interface Received {
  method: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

interface TestServer {
  url: string;
  received: Received[];
  /** Requests whose connection closed before the answer was sent. */
  closedEarly: number;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

let servers: TestServer[] = [];

/** A local server whose handler decides what each request gets. */
async function startServer(
  handle: (request: IncomingMessage, response: ServerResponse, server: TestServer) => void | Promise<void>,
) {
  const state = { received: [] as Received[], closedEarly: 0 };
  const server: Server = createServer((request, response) => {
    response.on('close', () => {
      if (!response.writableFinished) state.closedEarly += 1;
    });
    Promise.resolve(handle(request, response, testServer)).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testServer: TestServer = Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  servers.push(testServer);
  return testServer;
}

/** Stores what came and answers like S3 a stored part: 200 with its ETag. */
async function storeAndAnswer(request: IncomingMessage, response: ServerResponse, server: TestServer) {
  const body = await readBody(request);
  server.received.push({ method: request.method ?? '', headers: request.headers, body });
  response.writeHead(200, { etag: '"etag-of-part"', 'content-type': 'text/plain' }).end('stored');
}

function bytesOf(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(randomBytes(size));
}

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('nodeTransport', () => {
  it('sends a Blob with its exact length and returns the status, the ETag and the body', async () => {
    // Prepare
    const server = await startServer(storeAndAnswer);
    const bytes = bytesOf(300 * 1024);

    // Act
    const answer = await nodeTransport.send({
      method: 'PUT',
      url: `${server.url}/bucket/key?partNumber=1`,
      body: new Blob([bytes]),
    });

    // Assess
    expect(answer).toEqual({ status: 200, etag: '"etag-of-part"', body: 'stored' });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]?.method).toBe('PUT');
    expect(server.received[0]?.headers['content-length']).toBe(String(bytes.length));
    expect(server.received[0]?.headers['transfer-encoding']).toBeUndefined();
    // An untyped part sends no Content-Type, as fetch and XMLHttpRequest do (a presigned url may not allow one).
    expect(server.received[0]?.headers['content-type']).toBeUndefined();
    expect(server.received[0]?.body.equals(bytes)).toBe(true);
  });

  it('sends a slice of a file opened with fs.openAsBlob, read from disk', async () => {
    // Prepare
    const server = await startServer(storeAndAnswer);
    const folder = await mkdtemp(join(tmpdir(), 'upload-transport-node-'));
    try {
      const bytes = bytesOf(3 * MIB);
      const path = join(folder, 'holiday.mov');
      await writeFile(path, bytes);
      const file = await openAsBlob(path);

      // Act
      const answer = await nodeTransport.send({ method: 'PUT', url: server.url, body: file.slice(MIB, 2 * MIB + 5) });

      // Assess
      expect(answer.status).toBe(200);
      expect(server.received[0]?.body.equals(bytes.subarray(MIB, 2 * MIB + 5))).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('resolves with an error answer (S3 XML included) rather than rejecting', async () => {
    // Prepare
    const xml = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    const server = await startServer(async (request, response) => {
      await readBody(request);
      response.writeHead(403, { 'content-type': 'application/xml' }).end(xml);
    });

    // Act
    const answer = await nodeTransport.send({ method: 'PUT', url: server.url, body: new Blob([bytesOf(10)]) });

    // Assess
    expect(answer).toEqual({ status: 403, etag: null, body: xml });
  });

  it('resolves with an answer S3 gives before reading the whole body', async () => {
    // Prepare: the answer comes at once and the body is never read.
    const server = await startServer((_request, response) => {
      response.writeHead(400, { connection: 'close' }).end('<Error><Code>EntityTooLarge</Code></Error>');
    });

    // Act
    const answer = await nodeTransport.send({ method: 'PUT', url: server.url, body: new Blob([bytesOf(16 * MIB)]) });

    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('EntityTooLarge');
  });

  it('reports progress as the bytes are written, rising to the body size before the answer comes', async () => {
    // Prepare: the server holds its answer until the test has seen the progress.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await startServer(async (request, response) => {
      await readBody(request);
      await released;
      response.writeHead(200, { etag: '"e"' }).end();
    });
    const size = 8 * MIB;
    const reports: [number, number][] = [];

    // Act
    const sending = nodeTransport.send({
      method: 'PUT',
      url: server.url,
      body: new Blob([bytesOf(size)]),
      onProgress: (sent, total) => reports.push([sent, total]),
    });
    await vi.waitFor(() => expect(reports.at(-1)?.[0]).toBe(size));
    release();
    const answer = await sending;

    // Assess
    const sent = reports.map(([bytes]) => bytes);
    expect(reports.length).toBeGreaterThan(1);
    expect(sent.every((bytes, index) => index === 0 || bytes > sent[index - 1]!)).toBe(true);
    expect(reports.every(([, total]) => total === size)).toBe(true);
    expect(answer).toMatchObject({ status: 200, etag: '"e"' });
  });

  it('sends a form as multipart/form-data with its exact length, the fields in order and the file last', async () => {
    // Prepare
    const server = await startServer(storeAndAnswer);
    const bytes = bytesOf(200 * 1024);
    const form = new FormData();
    form.append('key', 'transfers/t1/file_1');
    form.append('Content-Type', 'video/quicktime');
    form.append('x-amz-meta-note', 'line one\nline "two"');
    form.append('file', new Blob([bytes], { type: 'video/quicktime' }), 'holiday "1".mov');
    const reports: [number, number][] = [];

    // Act
    const answer = await nodeTransport.send({
      method: 'POST',
      url: server.url,
      body: form,
      onProgress: (sent, total) => reports.push([sent, total]),
    });

    // Assess
    expect(answer.status).toBe(200);
    const received = server.received[0]!;
    expect(received.headers['content-length']).toBe(String(received.body.length));
    const parsed = await new Response(new Uint8Array(received.body), {
      headers: { 'content-type': received.headers['content-type'] ?? '' },
    }).formData();
    expect([...parsed.keys()]).toEqual(['key', 'Content-Type', 'x-amz-meta-note', 'file']);
    expect(parsed.get('key')).toBe('transfers/t1/file_1');
    expect(parsed.get('x-amz-meta-note')).toBe('line one\r\nline "two"');
    const file = parsed.get('file') as File;
    expect(file.type).toBe('video/quicktime');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(reports.at(-1)).toEqual([received.body.length, received.body.length]);
  });

  it('rejects with the signal reason when aborted mid-request, and closes the connection', async () => {
    // Prepare: the server reads the body but never answers.
    const server = await startServer(async (request, _response, state) => {
      state.received.push({ method: request.method ?? '', headers: request.headers, body: await readBody(request) });
    });
    const controller = new AbortController();
    const reason = new Error('The sender cancelled.');
    const sending = nodeTransport.send({
      method: 'PUT',
      url: server.url,
      body: new Blob([bytesOf(1024)]),
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));

    // Act
    controller.abort(reason);

    // Assess
    await expect(sending).rejects.toBe(reason);
    await vi.waitFor(() => expect(server.closedEarly).toBe(1));
  });

  it('rejects at once with the reason of a signal already aborted, sending nothing', async () => {
    // Prepare
    const server = await startServer(storeAndAnswer);
    const reason = new Error('Already cancelled.');

    // Act
    const sending = nodeTransport.send({
      method: 'PUT',
      url: server.url,
      body: new Blob([bytesOf(10)]),
      signal: AbortSignal.abort(reason),
    });

    // Assess
    await expect(sending).rejects.toBe(reason);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received).toHaveLength(0);
  });

  it('rejects with TransportNetworkError when the connection is refused', async () => {
    // Prepare: a port that was free a moment ago, with nothing listening on it now.
    const server = await startServer(storeAndAnswer);
    const url = server.url;
    await server.close();

    // Act
    const sending = nodeTransport.send({ method: 'PUT', url, body: new Blob([bytesOf(10)]) });

    // Assess
    await expect(sending).rejects.toBeInstanceOf(TransportNetworkError);
    await expect(sending).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });

  it('rejects with TransportNetworkError when the connection drops before an answer', async () => {
    // Prepare
    const server = await startServer((request) => {
      request.socket.destroy();
    });

    // Act
    const sending = nodeTransport.send({ method: 'PUT', url: server.url, body: new Blob([bytesOf(64 * 1024)]) });

    // Assess
    await expect(sending).rejects.toBeInstanceOf(TransportNetworkError);
  });

  it('rejects with TransportNetworkError when nothing moves for the idle timeout', async () => {
    // Prepare: the body is read, then nothing.
    const server = await startServer(async (request) => {
      await readBody(request);
    });
    const transport = createNodeTransport({ idleTimeoutMs: 100 });

    // Act
    const sending = transport.send({ method: 'PUT', url: server.url, body: new Blob([bytesOf(10)]) });

    // Assess
    await expect(sending).rejects.toThrow(TransportNetworkError);
    await expect(sending).rejects.toThrow(/timed out/);
    await vi.waitFor(() => expect(server.closedEarly).toBe(1));
  });

  it('refuses a url that is not http(s) without calling it a network failure (no retry would help)', async () => {
    // Act
    const sending = nodeTransport.send({ method: 'PUT', url: 'ftp://example.com/part', body: new Blob([bytesOf(10)]) });

    // Assess
    await expect(sending).rejects.toThrow(/neither http nor https/);
    await expect(sending).rejects.not.toBeInstanceOf(TransportNetworkError);
  });
});
