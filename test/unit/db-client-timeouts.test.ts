import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../functions/lib/db/client';

/** A table endpoint that answers every request with an empty GetItem result after 300 ms. */
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((_request, response) => {
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end('{}');
    }, 300);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The SDK's requestTimeout warnings printed while one GetItem goes through a client with that bound. */
async function requestTimeoutWarnings(requestTimeout: number | undefined): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const client = createDocumentClient({ endpoint, region: 'us-east-1', ...(requestTimeout ? { requestTimeout } : {}) });
  try {
    await client.send(new GetCommand({ TableName: 'table', Key: { pk: 'a', sk: 'b' } }));
  } finally {
    client.destroy();
  }
  return warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('requestTimeout'));
}

describe('the table client’s request bound', () => {
  it('warns when a request outlasts the bound it was given', async () => {
    const warnings = await requestTimeoutWarnings(100);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('100 ms requestTimeout');
  });

  it('is silent for a request within the bound: a bulk writer passes a longer one than handlers have', async () => {
    expect(await requestTimeoutWarnings(5_000)).toEqual([]);
    expect(await requestTimeoutWarnings(undefined)).toEqual([]);
  });
});
