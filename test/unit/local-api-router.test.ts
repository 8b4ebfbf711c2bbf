import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from '../../shared/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiRouter, type LambdaHttpHandler } from '../../infra/local/api-server';
import { defineRoute } from '../../shared/routes/define-route';

/** Every call a handler received, so tests can check the event API Gateway would have built. */
const calls: { name: string; event: APIGatewayProxyEventV2; context: Context }[] = [];

function recording(name: string, answer?: () => Promise<unknown>): LambdaHttpHandler {
  return async (event, context) => {
    calls.push({ name, event, context });
    if (answer) await answer();
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) };
  };
}

const route = (method: 'GET' | 'POST' | 'PUT', path: string) =>
  defineRoute({ method, path, access: 'public', handler: 'test/handler', summary: path, response: z.unknown() });

const ORIGIN = 'http://localhost:5173';
let server: Server;
let base: string;

beforeAll(async () => {
  const handleApi = createApiRouter({
    mounts: [
      { name: 'item-by-id', route: route('GET', '/api/items/{id}'), handler: recording('item-by-id') },
      { name: 'items-new', route: route('GET', '/api/items/new'), handler: recording('items-new') },
      { name: 'item-update', route: route('PUT', '/api/items/{id}'), handler: recording('item-update') },
      { name: 'items-create', route: route('POST', '/api/items'), handler: recording('items-create') },
      {
        name: 'cors-of-its-own',
        route: route('GET', '/api/cors-of-its-own'),
        handler: async () => ({
          statusCode: 200,
          headers: { 'content-type': 'application/json', 'Access-Control-Allow-Origin': '*', 'access-control-max-age': '1' },
          body: '{}',
        }),
      },
      {
        name: 'slow',
        route: route('GET', '/api/slow'),
        handler: recording('slow', () => new Promise((resolve) => setTimeout(resolve, 500))),
      },
      {
        name: 'oversized',
        route: route('GET', '/api/oversized'),
        // ASCII, but just over Lambda's 6,291,556 bytes once wrapped in the result's JSON.
        handler: async () => ({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(6_291_500) }),
      },
      {
        name: 'large-enough',
        route: route('GET', '/api/large-enough'),
        handler: async () => ({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(6_000_000) }),
      },
      {
        name: 'short-lived',
        // A Lambda timeout shorter than the integration's: the function is stopped first.
        route: { ...route('GET', '/api/short-lived'), timeoutSeconds: 0.05 },
        handler: recording('short-lived', () => new Promise((resolve) => setTimeout(resolve, 500))),
      },
    ],
    allowedOrigins: [ORIGIN],
    integrationTimeoutMs: 100,
  });
  server = createServer((request, response) => {
    void handleApi(request, response, new URL(`http://localhost${request.url ?? '/'}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const lastCall = () => calls.at(-1);

describe('the local API router, as API Gateway routes', () => {
  it('prefers a literal segment over a parameter, whatever the order of the routes', async () => {
    // Act
    const literal = await fetch(`${base}/api/items/new`);
    const literalName = lastCall()?.name;
    const parameter = await fetch(`${base}/api/items/42`);

    // Assess
    expect(literal.status).toBe(200);
    expect(literalName).toBe('items-new');
    expect(parameter.status).toBe(200);
    expect(lastCall()?.name).toBe('item-by-id');
    expect(lastCall()?.event.pathParameters).toEqual({ id: '42' });
  });

  it('builds the event as API Gateway does: decoded path parameters, repeated query parameters joined by commas, cookies apart', async () => {
    // Act
    await fetch(`${base}/api/items/a%20b?tag=x&tag=y&page=2`, {
      headers: { cookie: 'one=1; two=2', 'user-agent': 'router-test' },
    });

    // Assess
    const event = lastCall()?.event;
    expect(event?.routeKey).toBe('GET /api/items/{id}');
    expect(event?.rawPath).toBe('/api/items/a%20b');
    expect(event?.rawQueryString).toBe('tag=x&tag=y&page=2');
    expect(event?.pathParameters).toEqual({ id: 'a b' });
    expect(event?.queryStringParameters).toEqual({ tag: 'x,y', page: '2' });
    expect(event?.cookies).toEqual(['one=1', 'two=2']);
    expect(event?.headers.cookie).toBeUndefined();
    expect(event?.requestContext.http).toMatchObject({ method: 'GET', path: '/api/items/a%20b', userAgent: 'router-test' });
    expect(event?.body).toBeUndefined();
    // The access log's format, as API Gateway sends it: "26/Nov/2026:16:05:37 +0000".
    expect(event?.requestContext.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    const at = new Date(event?.requestContext.timeEpoch ?? 0);
    expect(event?.requestContext.time.slice(0, 11)).toBe(
      `${String(at.getUTCDate()).padStart(2, '0')}/${at.toUTCString().slice(8, 11)}/${at.getUTCFullYear()}`,
    );
    const context = lastCall()?.context;
    expect(context?.functionName).toBe('item-by-id');
    expect(context?.invokedFunctionArn).toBe('arn:aws:lambda:local:000000000000:function:item-by-id');
    expect(context?.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    // This router's integration timeout is 100 ms: the call answered well within it.
    expect(context?.getRemainingTimeInMillis()).toBeGreaterThan(50);
  });

  it('leaves out query parameters and body when the request has none, and passes a body through as text', async () => {
    // Act
    await fetch(`${base}/api/items/new`);
    const withoutQuery = lastCall()?.event;
    await fetch(`${base}/api/items`, { method: 'POST', body: '{"name":"n"}', headers: { 'content-type': 'application/json' } });
    const withBody = lastCall()?.event;

    // Assess
    expect(withoutQuery?.queryStringParameters).toBeUndefined();
    expect(withoutQuery?.pathParameters).toBeUndefined();
    expect(withBody?.body).toBe('{"name":"n"}');
  });

  it('matches a path with a trailing slash to the route without it, as API Gateway does, and keeps the slash in rawPath', async () => {
    // Act
    const literal = await fetch(`${base}/api/items/new/`);
    const literalEvent = lastCall()?.event;
    const parameter = await fetch(`${base}/api/items/42/`);
    const parameterEvent = lastCall()?.event;
    const emptyParameter = await fetch(`${base}/api/items/`);

    // Assess
    expect(literal.status).toBe(200);
    expect(literalEvent?.routeKey).toBe('GET /api/items/new');
    expect(literalEvent?.rawPath).toBe('/api/items/new/');
    expect(parameter.status).toBe(200);
    expect(parameterEvent?.pathParameters).toEqual({ id: '42' });
    // `/api/items/` is `/api/items` (a POST route here), never `/api/items/{id}` with an empty id.
    expect(emptyParameter.status).toBe(405);
    expect(emptyParameter.headers.get('allow')).toBe('POST');
  });

  it('answers a wrong method with 405 and the methods the path allows, and an unknown path with 404', async () => {
    // Act
    const wrongMethod = await fetch(`${base}/api/items/42`, { method: 'POST' });
    const unknown = await fetch(`${base}/api/nothing-here`);

    // Assess
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, PUT');
    expect(await wrongMethod.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("adds API Gateway's CORS headers to an allowed origin's answer, drops a function's own, and gives nothing to another origin", async () => {
    // Act
    const allowed = await fetch(`${base}/api/cors-of-its-own`, { headers: { origin: ORIGIN } });
    const other = await fetch(`${base}/api/cors-of-its-own`, { headers: { origin: 'https://evil.example' } });
    const sameOrigin = await fetch(`${base}/api/items/7`);

    // Assess
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-expose-headers')).toBe('etag,retry-after');
    expect(allowed.headers.get('access-control-max-age')).toBeNull();
    expect(allowed.headers.get('vary')).toBe('Origin');
    for (const answer of [other, sameOrigin]) {
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('answers a preflight from an allowed origin with the configured methods, and gives nothing to another origin', async () => {
    // Act
    const allowed = await fetch(`${base}/api/items/42`, { method: 'OPTIONS', headers: { origin: ORIGIN } });
    const other = await fetch(`${base}/api/items/42`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });

    // Assess
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,DELETE');
    expect(allowed.headers.get('access-control-max-age')).toBe('3600');
    expect(other.status).toBe(204);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers HEAD from the GET route without a body', async () => {
    // Act
    const head = await fetch(`${base}/api/items/7`, { method: 'HEAD' });

    // Assess
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(lastCall()?.name).toBe('item-by-id');
  });

  it('answers 504 when the handler takes longer than the integration timeout', async () => {
    // Act
    const slow = await fetch(`${base}/api/slow`);

    // Assess
    expect(slow.status).toBe(504);
    expect(await slow.json()).toMatchObject({ code: 'GATEWAY_TIMEOUT' });
    expect(lastCall()?.context.getRemainingTimeInMillis()).toBeLessThanOrEqual(100);
  });

  it("answers 500 as API Gateway does for a result over Lambda's 6 MB, and passes one just under it", async () => {
    // Act
    const oversized = await fetch(`${base}/api/oversized`);
    const largeEnough = await fetch(`${base}/api/large-enough`);

    // Assess
    expect(oversized.status).toBe(500);
    expect(await oversized.json()).toEqual({ message: 'Internal Server Error' });
    expect(largeEnough.status).toBe(200);
    expect((await largeEnough.text()).length).toBe(6_000_000);
  });

  it("answers 500 as API Gateway does when the function outlives its own timeout, whatever the integration's", async () => {
    // Act
    const stopped = await fetch(`${base}/api/short-lived`);

    // Assess
    expect(stopped.status).toBe(500);
    expect(await stopped.json()).toEqual({ message: 'Internal Server Error' });
    expect(lastCall()?.name).toBe('short-lived');
    expect(lastCall()?.context.getRemainingTimeInMillis()).toBeLessThanOrEqual(50);
  });
});
