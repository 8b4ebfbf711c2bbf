import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, apiRequest, buildUrl, endpoint } from './api-client';
import { SESSION_HEADER } from '@shared/constants';
import type { routes } from '@shared/routes';

function respond(status: number, body: unknown, contentType = 'application/json', statusText = '') {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'content-type': contentType },
  });
}

function lastCall(fetchMock: ReturnType<typeof vi.fn>) {
  const [url, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
  return { url, init, headers: init.headers as Record<string, string> };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('buildUrl', () => {
  it('fills path parameters, encodes them and drops empty query values', () => {
    // Act
    const url = buildUrl('/api/i/toppubs/pub/{slug}', {
      params: { slug: 'a b/c' },
      query: { page: 2, active: true, topic: undefined, q: null },
    });

    // Assess
    expect(url).toBe('/api/i/toppubs/pub/a%20b%2Fc?page=2&active=true');
  });

  it('sends arrays as JSON, as the following-ids lookup expects', () => {
    // Act
    const url = buildUrl('/api/i/x', { query: { userIds: ['u1', 'u2'] } });

    // Assess
    expect(new URL(url, 'http://h').searchParams.get('userIds')).toBe('["u1","u2"]');
  });

  it('refuses to call a path with a missing parameter', () => {
    // Act / Assess
    expect(() => buildUrl('/api/i/toppubs/pub/{slug}')).toThrow("Missing path parameter 'slug'");
  });
});

describe('apiRequest', () => {
  it('sends JSON, credentials, the application id and the page it was called from', async () => {
    // Prepare
    const fetchMock = vi.fn().mockResolvedValue(respond(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);

    // Act
    const result = await apiRequest<{ ok: boolean }>('POST', '/api/i/toppubs/admin/rank', { body: { a: 1 } });

    // Assess
    const { init, headers } = lastCall(fetchMock);
    expect(result).toEqual({ ok: true });
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"a":1}');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-application-id']).toBe('sso_app_6');
    expect(headers['x-page-url']).toBe(window.location.href);
    expect(headers['x-browser-window']).toBe('true');
  });

  it('lets a small change outlive the page (keepalive), but not a read or a large body', async () => {
    // Prepare
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(respond(200, { ok: true })));
    vi.stubGlobal('fetch', fetchMock);

    // Act
    await apiRequest('PUT', '/api/i/stories/story/s1/v/like/on');
    const like = lastCall(fetchMock).init;
    await apiRequest('GET', '/api/i/user/me/v');
    const read = lastCall(fetchMock).init;
    await apiRequest('POST', '/api/i/file/transfer', { body: { message: 'x'.repeat(9_000) } });
    const large = lastCall(fetchMock).init;

    // Assess
    expect(like.keepalive).toBe(true);
    expect(read.keepalive).toBeUndefined();
    expect(large.keepalive).toBeUndefined();
  });

  it('leaves the session to the HttpOnly cookie: no session header, whatever the page holds', async () => {
    // Prepare: a page that embeds what once passed for a session token.
    const fetchMock = vi.fn().mockImplementation(async () => respond(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    const data = document.createElement('script');
    data.id = 'app-data';
    data.type = 'application/json';
    data.textContent = JSON.stringify({ ssoToken: 'tok-123' });
    document.body.append(data);

    // Act
    await apiRequest('GET', '/api/i/toppubs/topics');
    const { init, headers } = lastCall(fetchMock);

    // Assess: the browser sends the cookie itself, as credentials are included.
    expect(init.credentials).toBe('include');
    expect(headers).not.toHaveProperty(SESSION_HEADER);
    expect(JSON.stringify(headers)).not.toContain('tok-123');
  });

  it('returns plain text when the answer is not JSON', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(respond(200, '<urlset/>', 'application/xml')));

    // Act
    const result = await apiRequest<string>('GET', '/api/i/ourTransfers/sitemap/xml');

    // Assess
    expect(result).toBe('<urlset/>');
  });

  it('throws the status text merged with the JSON error body fields', async () => {
    // Prepare
    const body = { message: "There is no topic called 'x'.", code: 'NOT_FOUND' };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(respond(404, body, 'application/json', 'Not Found')));

    // Act
    const error = (await apiRequest('GET', '/api/i/toppubs/load/pubs').catch((caught: unknown) => caught)) as ApiError;

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.message).toBe("There is no topic called 'x'.");
    expect(error.code).toBe('NOT_FOUND');
    expect(error.body).toEqual(body);
  });

  it('throws with the status text, or the numeric status, when the error body is not JSON', async () => {
    // Prepare
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(respond(502, '<html>bad gateway</html>', 'text/html', 'Bad Gateway'))
        .mockResolvedValueOnce(respond(503, 'down', 'text/plain', '')),
    );

    // Act
    const withText = (await apiRequest('GET', '/api/i/x').catch((caught: unknown) => caught)) as ApiError;
    const withoutText = (await apiRequest('GET', '/api/i/x').catch((caught: unknown) => caught)) as ApiError;

    // Assess
    expect(withText.message).toBe('Bad Gateway');
    expect(withText.body).toBeUndefined();
    expect(withoutText.message).toBe('503');
    expect(withoutText.status).toBe(503);
  });
});

describe('endpoint', () => {
  it('calls the route-table path with typed parameters', async () => {
    // Prepare
    const fetchMock = vi.fn().mockResolvedValue(respond(200, { publication: {} }));
    vi.stubGlobal('fetch', fetchMock);
    const getPublication = endpoint<typeof routes.getPublication>('GET', '/api/i/toppubs/pub/{slug}');

    // Act
    await getPublication({ params: { slug: 'the-quiet-ledger' } });

    // Assess
    expect(lastCall(fetchMock).url).toBe('/api/i/toppubs/pub/the-quiet-ledger');
    expect(lastCall(fetchMock).init.method).toBe('GET');
  });

  it('accepts only the route table method and path (checked by the typecheck in npm test)', () => {
    // Assess
    expectTypeOf(endpoint<typeof routes.getPublication>)
      .parameter(0)
      .toEqualTypeOf<'GET'>();
    expectTypeOf(endpoint<typeof routes.getPublication>)
      .parameter(1)
      .toEqualTypeOf<'/api/i/toppubs/pub/{slug}'>();
  });
});
