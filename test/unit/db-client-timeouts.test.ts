import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../functions/lib/db/client';
import { isDependencyUnavailable } from '../../functions/lib/errors';

/**
 * A table endpoint that answers requests to /slow with an empty GetItem result after 300 ms, and
 * accepts every other request without ever answering it.
 */
let server: Server;
let slowEndpoint: string;
let silentEndpoint: string;
const unanswered: ServerResponse[] = [];
let requestsSeen = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requestsSeen += 1;
    if (request.url?.startsWith('/slow')) {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        response.end('{}');
      }, 300);
      return;
    }
    unanswered.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  slowEndpoint = `${origin}/slow`;
  silentEndpoint = origin;
});

afterAll(async () => {
  for (const response of unanswered) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function getItem(endpoint: string, requestTimeout: number | undefined) {
  const client = createDocumentClient({ endpoint, region: 'us-east-1', ...(requestTimeout ? { requestTimeout } : {}) });
  try {
    return await client.send(new GetCommand({ TableName: 'table', Key: { pk: 'a', sk: 'b' } }));
  } finally {
    client.destroy();
  }
}

describe('the table client’s request bound', () => {
  it('fails a request the table never answers once the bound has passed, instead of waiting', async () => {
    // Prepare
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const before = requestsSeen;

    // Act
    const started = Date.now();
    const thrown = await getItem(silentEndpoint, 100).catch((error: unknown) => error);
    const elapsed = Date.now() - started;

    // Assess
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe('TimeoutError');
    expect((thrown as Error).message).toContain('100 ms requestTimeout');
    // The pipeline answers this with its 503 "briefly unavailable", as for an unreachable table.
    expect(isDependencyUnavailable(thrown)).toBe(true);
    // Three attempts of 100 ms and the SDK's short backoff between them: nowhere near a hang.
    expect(requestsSeen - before).toBe(3);
    expect(elapsed).toBeLessThan(3_000);
    expect(warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('requestTimeout'))).toEqual([]);
  });

  it('lets a slow answer within the bound through: a bulk writer passes a longer one than handlers have', async () => {
    // Act
    const seedLike = await getItem(slowEndpoint, 5_000);
    const handlerDefault = await getItem(slowEndpoint, undefined);

    // Assess
    expect(seedLike.Item).toBeUndefined();
    expect(handlerDefault.Item).toBeUndefined();
  });

  it('fails a slow answer that outlasts a short bound rather than only warning about it', async () => {
    await expect(getItem(slowEndpoint, 100)).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
