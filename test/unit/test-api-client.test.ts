import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from '../../shared/zod';
import { defineRoute } from '../../shared/routes';
import { createApiClient, type ApiClient, expectOk } from '../support/api-client';

/** What the fake API received last, and what it answers next. */
let received: { method: string; url: string; headers: IncomingHttpHeaders; body: string } | undefined;
let nextAnswer: { status: number; body: string; headers?: Record<string, string> };
let server: Server;
let api: ApiClient;

const itemRoute = defineRoute({
  method: 'POST',
  path: '/api/test/{name}/items',
  access: 'public',
  handler: 'test/items',
  summary: 'A route of the test table.',
  params: z.strictObject({ name: z.string() }),
  query: z.strictObject({ ids: z.optional(z.array(z.string())), page: z.optional(z.number()) }),
  body: z.strictObject({ note: z.string() }),
  response: z.object({ count: z.number() }),
});

const redirectRoute = defineRoute({
  method: 'GET',
  path: '/api/test/callback',
  access: 'public',
  handler: 'test/callback',
  summary: 'A redirect route of the test table.',
  response: z.undefined(),
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      response.writeHead(nextAnswer.status, nextAnswer.headers ?? {}).end(nextAnswer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = createApiClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = undefined;
  nextAnswer = json(200, { count: 1 });
});

describe('the integration tests’ API client', () => {
  it('fills and encodes path parameters, sends arrays as JSON, the app id, the session cookie and a JSON body', async () => {
    // Act
    await api.call(itemRoute, {
      params: { name: 'a b/c' },
      query: { ids: ['x', 'y'], page: 2 },
      body: { note: 'hi' },
      as: { token: 'session-token' },
    });

    // Assess
    const url = new URL(received?.url ?? '', 'http://localhost');
    expect(received?.method).toBe('POST');
    expect(url.pathname).toBe('/api/test/a%20b%2Fc/items');
    expect(url.searchParams.get('ids')).toBe('["x","y"]');
    expect(url.searchParams.get('page')).toBe('2');
    expect(received?.headers).toMatchObject({
      'x-application-id': 'sso_app_6',
      'content-type': 'application/json',
      cookie: 'ssoat=session-token',
    });
    expect(received?.body).toBe('{"note":"hi"}');
  });

  it('sends app credentials in place of the web app id, and leaves out a header set to undefined', async () => {
    // Act
    await api.call(itemRoute, { params: { name: 'n' }, body: { note: '' }, as: { appId: 'bot', appToken: 'secret' } });
    const asApp = received?.headers;
    await api.call(itemRoute, { params: { name: 'n' }, body: { note: '' }, headers: { 'x-application-id': undefined } });
    const withoutAppId = received?.headers;

    // Assess
    expect(asApp).toMatchObject({ 'x-application-id': 'bot', 'x-app-token': 'secret' });
    expect(asApp?.cookie).toBeUndefined();
    expect(withoutAppId?.['x-application-id']).toBeUndefined();
  });

  it('answers the body as sent, fields the schema does not name included', async () => {
    // Prepare
    nextAnswer = json(200, { count: 3, email: 'leak@example.com' });

    // Act
    const answer = await api.call(itemRoute, { params: { name: 'n' }, body: { note: '' } });

    // Assess
    expectOk(answer);
    expect(answer.body).toEqual({ count: 3, email: 'leak@example.com' });
  });

  it("fails a 2xx answer that does not match the route's response schema, naming the route and the field", async () => {
    // Prepare
    nextAnswer = json(200, { count: 'three' });

    // Act
    const calling = api.call(itemRoute, { params: { name: 'n' }, body: { note: '' } });

    // Assess
    await expect(calling).rejects.toThrow(/POST \/api\/test\/\{name\}\/items answered 200: .*response schema:\n {2}count: /s);
  });

  it('returns an error answer as { message, code, ...fields }', async () => {
    // Prepare
    nextAnswer = json(400, { message: 'Invalid', code: 'VALIDATION_FAILED', fields: [{ field: 'note' }] });

    // Act
    const answer = await api.call(itemRoute, { params: { name: 'n' }, body: { note: '' } });

    // Assess
    expect(answer).toMatchObject({ ok: false, status: 400, body: { message: 'Invalid', code: 'VALIDATION_FAILED' } });
    expect(answer.body).toHaveProperty('fields', [{ field: 'note' }]);
  });

  it.each([
    ['an error that is not JSON', { status: 502, body: '<html>Bad gateway</html>' }],
    ['an error without a code', json(403, { message: 'No' })],
    ['a redirect from a route that answers JSON', { status: 302, body: '', headers: { location: '/elsewhere' } }],
  ])('fails %s', async (_case, answer) => {
    // Prepare
    nextAnswer = answer;

    // Act
    const calling = api.call(itemRoute, { params: { name: 'n' }, body: { note: '' } });

    // Assess
    await expect(calling).rejects.toThrow(/^POST \/api\/test\/\{name\}\/items answered \d{3}: /);
  });

  it('gives the Location of a redirect route, sent without the app id a navigation cannot carry', async () => {
    // Prepare
    nextAnswer = { status: 302, body: '', headers: { location: '/login/failed?reason=cancelled' } };

    // Act
    const answer = await api.call(redirectRoute);

    // Assess
    expect(answer).toMatchObject({ ok: true, status: 302, location: '/login/failed?reason=cancelled' });
    expect(received?.headers['x-application-id']).toBeUndefined();
  });

  it.each([
    ['a 2xx', json(200, {})],
    ['a redirect without a Location', { status: 302, body: '' }],
  ])('fails %s from a redirect route', async (_case, answer) => {
    // Prepare
    nextAnswer = answer;

    // Act
    const calling = api.call(redirectRoute);

    // Assess
    await expect(calling).rejects.toThrow(/^GET \/api\/test\/callback answered \d{3}: /);
  });
});
