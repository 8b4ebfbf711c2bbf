import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchFeedText } from '../../functions/ranking/collect-feeds';
import { FeedError, newestFeedDate } from '../../functions/ranking/lib/feed-document';
import {
  AddressRefused,
  isPublicAddress,
  NameNotResolved,
  ResponseTooLarge,
  SafeFetchError,
  safeFetch,
  safeFetchBytes,
  TimedOut,
  TooManyRedirects,
  UnexpectedStatus,
} from '../../functions/lib/http/safe-fetch';

const NOW = new Date('2025-01-20T12:00:00Z');

const rss = (dates: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Tom &amp; Jerry's &lt;Notes&gt;</title>
    <lastBuildDate>Mon, 20 Jan 2025 11:00:00 GMT</lastBuildDate>
    ${dates.map((date, index) => `<item><title>Post ${index}</title><pubDate>${date}</pubDate></item>`).join('\n    ')}
  </channel>
</rss>`;

describe('newestFeedDate', () => {
  it('returns the newest RSS 2.0 item date whatever the item order, not the channel build date', async () => {
    // Prepare
    const xml = rss(['Tue, 07 Jan 2025 08:00:00 GMT', 'Wed, 15 Jan 2025 09:30:00 +0100', 'Fri, 03 Jan 2025 10:00:00 GMT']);

    // Act
    const newest = await newestFeedDate(xml, NOW);

    // Assess
    expect(newest?.toISOString()).toBe('2025-01-15T08:30:00.000Z');
  });

  it('returns the newest Atom entry date across updated and published', async () => {
    // Prepare
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="text">Example</title>
  <updated>2025-01-19T00:00:00Z</updated>
  <entry><title>One</title><published>2025-01-10T10:00:00Z</published><updated>2025-01-11T10:00:00Z</updated></entry>
  <entry><title>Two</title><published>2025-01-12T06:00:00-05:00</published></entry>
</feed>`;

    // Act
    const newest = await newestFeedDate(xml, NOW);

    // Assess
    expect(newest?.toISOString()).toBe('2025-01-12T11:00:00.000Z');
  });

  it('reads a single Atom entry with a namespace prefix and RSS 1.0 items with dc:date', async () => {
    // Prepare
    const atom = `<atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:entry><atom:updated>2025-01-02T03:04:05Z</atom:updated></atom:entry></atom:feed>`;
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>Old school</title></channel>
  <item><title>A</title><dc:date>2024-12-31T23:00:00Z</dc:date></item>
  <item><title>B</title><dc:date>2024-11-30T23:00:00Z</dc:date></item>
</rdf:RDF>`;

    // Act / Assess
    expect((await newestFeedDate(atom, NOW))?.toISOString()).toBe('2025-01-02T03:04:05.000Z');
    expect((await newestFeedDate(rdf, NOW))?.toISOString()).toBe('2024-12-31T23:00:00.000Z');
  });

  it('returns null for a valid feed without dated posts', async () => {
    // Act / Assess
    expect(await newestFeedDate(rss([]), NOW)).toBeNull();
    expect(await newestFeedDate(rss(['sometime last week']), NOW)).toBeNull();
    expect(await newestFeedDate('<feed xmlns="http://www.w3.org/2005/Atom"></feed>', NOW)).toBeNull();
  });

  it('ignores dates far in the future and caps slightly future ones at now', async () => {
    // Act
    const farFuture = await newestFeedDate(rss(['Thu, 01 Jan 2099 00:00:00 GMT', 'Sun, 12 Jan 2025 00:00:00 GMT']), NOW);
    const clockSkew = await newestFeedDate(rss(['Mon, 20 Jan 2025 13:00:00 GMT']), NOW);

    // Assess
    expect(farFuture?.toISOString()).toBe('2025-01-12T00:00:00.000Z');
    expect(clockSkew?.toISOString()).toBe(NOW.toISOString());
  });

  it.each([
    ['plain text', 'this is not a feed'],
    ['an HTML page', '<!DOCTYPE html><html><head><title>Blog</title></head><body><p>Hello</p></body></html>'],
    ['JSON', '{"items":[{"date":"2025-01-01"}]}'],
    ['an empty body', ''],
  ])('throws a FeedError for %s', async (_label, body) => {
    // Act / Assess
    await expect(newestFeedDate(body, NOW)).rejects.toThrow(FeedError);
  });
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    // IPv4-compatible (::/96) and 6to4 (2002::/16) forms carry an IPv4 address inside them.
    '::127.0.0.1',
    '::169.254.169.254',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('fetchFeedText', () => {
  it.each([
    ['a file URL', 'file:///etc/passwd', /Only http and https/],
    ['an FTP URL', 'ftp://feeds.example.com/feed', /Only http and https/],
    ['a loopback address', 'http://127.0.0.1:9/feed', /non-public/],
    ['an IPv6 loopback address', 'http://[::1]:9/feed', /non-public/],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/', /non-public/],
    ['a name resolving to loopback', 'http://localhost:9/feed', /non-public/],
    ['text that is no URL', 'not a url', /Not a valid URL/],
  ])('refuses %s before any request is made', async (_label, url, reason) => {
    // Act / Assess
    await expect(fetchFeedText(url)).rejects.toThrow(reason);
  });
});

describe('safeFetch answers that are not a success', () => {
  it('throw UnexpectedStatus with the status and the wait Retry-After asks for', async () => {
    // Prepare: a server on loopback that is busy, then gone
    const server = createServer((request, response) => {
      if (request.url === '/busy') response.writeHead(429, { 'retry-after': '120' }).end('slow down');
      else response.writeHead(410).end('gone');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    try {
      // Act
      const busy = await safeFetch(`http://127.0.0.1:${port}/busy`, { allowPrivateAddresses: true }).catch(
        (error: unknown) => error,
      );
      const gone = await safeFetch(`http://127.0.0.1:${port}/gone`, { allowPrivateAddresses: true }).catch(
        (error: unknown) => error,
      );

      // Assess
      expect(busy).toBeInstanceOf(UnexpectedStatus);
      expect(busy).toMatchObject({ status: 429, retryAfterSeconds: 120, message: 'HTTP 429' });
      expect(gone).toMatchObject({ status: 410, retryAfterSeconds: undefined, message: 'HTTP 410' });
    } finally {
      server.close();
    }
  });
});

describe('safeFetchBytes', () => {
  const servers: Array<() => void> = [];
  afterEach(() => {
    for (const close of servers.splice(0)) close();
  });

  /** A web server on loopback answering with `handler`; records the paths it is asked for. */
  async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void) {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(() => {
      server.close();
      server.closeAllConnections();
    });
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, port, seen };
  }

  const loopback = { allowPrivateAddresses: true };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('answers every byte value intact, after a redirect, where safeFetch answers UTF-8 text', async () => {
    // Prepare: every byte 0x00-0xff, which is not valid UTF-8, and a UTF-8 page
    const binary = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
    const { origin, seen } = await serve((request, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: '/bytes.bin' }).end();
      else if (request.url === '/bytes.bin')
        response.writeHead(200, { 'content-type': 'application/octet-stream', etag: '"v1"' }).end(binary);
      else response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Crème brûlée ✓');
    });

    // Act
    const fetched = await safeFetchBytes(`${origin}/moved`, loopback);
    const text = await safeFetch(`${origin}/page`, loopback);

    // Assess
    expect(fetched).toEqual({
      url: `${origin}/bytes.bin`,
      contentType: 'application/octet-stream',
      bytes: new Uint8Array(binary),
      etag: '"v1"',
    });
    expect(fetched.bytes).toBeInstanceOf(Uint8Array);
    expect(fetched.bytes.byteLength).toBe(256);
    expect(fetched.bytes.buffer.byteLength).toBe(256);
    expect(seen).toEqual(['/moved', '/bytes.bin', '/page']);
    expect(text).toEqual({ url: `${origin}/page`, contentType: 'text/plain; charset=utf-8', body: 'Crème brûlée ✓' });
  });

  it("stops when the caller's signal aborts, rejecting with its reason rather than a SafeFetchError", async () => {
    // Prepare: a server that never answers, and a caller that gives up after 50 ms
    const { origin } = await serve(() => undefined);
    const caller = new AbortController();
    const reason = new Error('request ended');
    setTimeout(() => caller.abort(reason), 50);
    const started = Date.now();

    // Act
    const error = await failure(safeFetchBytes(`${origin}/slow`, { ...loopback, signal: caller.signal }));

    // Assess
    expect(error).toBe(reason);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects with the reason of a signal that aborted before it was called, sending nothing', async () => {
    // Prepare
    const { origin, seen } = await serve((_request, response) => response.end('hello'));
    const reason = new Error('already gone');

    // Act
    const error = await failure(safeFetchBytes(`${origin}/page`, { ...loopback, signal: AbortSignal.abort(reason) }));

    // Assess
    expect(error).toBe(reason);
    expect(seen).toEqual([]);
  });

  it.each([
    ['a loopback address', (port: number) => `http://127.0.0.1:${port}/page`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/page`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/page`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv4-compatible loopback', (port: number) => `http://[::127.0.0.1]:${port}/page`],
    ['6to4 loopback', (port: number) => `http://[2002:7f00:1::1]:${port}/page`],
  ])('throws AddressRefused (non-public) for %s, before any request', async (_label, address) => {
    // Prepare
    const { port, seen } = await serve((_request, response) => response.end('secret'));

    // Act
    const error = await failure(safeFetchBytes(address(port)));

    // Assess
    expect(error).toBeInstanceOf(AddressRefused);
    expect(error).toMatchObject({ reason: 'non-public', message: expect.stringMatching(/non-public address$/) });
    expect(seen).toEqual([]);
  });

  it.each([
    ['file:///etc/passwd', 'scheme'],
    ['ftp://example.com/file', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['not a url', 'invalid-url'],
  ])('throws AddressRefused for %s', async (address, reason) => {
    // Act
    const error = await failure(safeFetchBytes(address, loopback));

    // Assess
    expect(error).toBeInstanceOf(AddressRefused);
    expect(error).toMatchObject({ reason });
  });

  it('throws AddressRefused for a redirect to a non-http address, without following it', async () => {
    // Prepare
    const { origin } = await serve((_request, response) => response.writeHead(301, { location: 'file:///etc/passwd' }).end());

    // Act
    const error = await failure(safeFetchBytes(`${origin}/moved`, loopback));

    // Assess
    expect(error).toBeInstanceOf(AddressRefused);
    expect(error).toMatchObject({ reason: 'scheme', message: 'Only http and https URLs are fetched' });
  });

  it('throws NameNotResolved for a name DNS does not know', async () => {
    // Act: .invalid is reserved never to resolve (RFC 6761)
    const error = await failure(safeFetchBytes('http://no-such-host.invalid/page'));

    // Assess
    expect(error).toBeInstanceOf(NameNotResolved);
    expect(error).toMatchObject({ host: 'no-such-host.invalid', message: 'Cannot resolve no-such-host.invalid' });
  });

  it.each([
    ['streamed without a length', false],
    ['announced by its Content-Length', true],
  ])('throws ResponseTooLarge with the cap for a body over maxBytes %s', async (_label, announced) => {
    // Prepare
    const body = Buffer.alloc(1025, 7);
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, announced ? { 'content-length': String(body.byteLength) } : {});
      response.end(body);
    });

    // Act
    const error = await failure(safeFetchBytes(`${origin}/big`, { ...loopback, maxBytes: 1024 }));
    const exact = await safeFetchBytes(`${origin}/big`, { ...loopback, maxBytes: 1025 });

    // Assess
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(error).toMatchObject({ maxBytes: 1024, message: 'Larger than 1024 bytes' });
    expect(exact.bytes).toEqual(new Uint8Array(body));
  });

  it.each([404, 500, 503])('throws UnexpectedStatus for HTTP %i', async (status) => {
    // Prepare
    const { origin } = await serve((_request, response) => response.writeHead(status, { 'retry-after': '30' }).end('oops'));

    // Act
    const error = await failure(safeFetchBytes(`${origin}/page`, loopback));

    // Assess
    expect(error).toBeInstanceOf(UnexpectedStatus);
    expect(error).toMatchObject({ status, retryAfterSeconds: 30, message: `HTTP ${status}` });
  });

  it('throws TooManyRedirects for an address that redirects in circles', async () => {
    // Prepare
    const { origin, seen } = await serve((request, response) =>
      response.writeHead(302, { location: request.url === '/a' ? '/b' : '/a' }).end(),
    );

    // Act
    const error = await failure(safeFetchBytes(`${origin}/a`, { ...loopback, maxRedirects: 3 }));

    // Assess
    expect(error).toBeInstanceOf(TooManyRedirects);
    expect(error).toMatchObject({ maxRedirects: 3, message: 'More than 3 redirects' });
    expect(seen).toHaveLength(4);
  });

  it('throws TimedOut when the server does not answer within the deadline', async () => {
    // Prepare
    const { origin } = await serve(() => undefined);
    const started = Date.now();

    // Act
    const error = await failure(safeFetchBytes(`${origin}/slow`, { ...loopback, timeoutMs: 200 }));

    // Assess
    expect(error).toBeInstanceOf(TimedOut);
    expect(error).toBeInstanceOf(SafeFetchError);
    expect(error).toMatchObject({ timeoutMs: 200, message: 'Timed out' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
