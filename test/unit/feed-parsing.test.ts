import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchFeedText } from '../../functions/ranking/collect-feeds';
import { FeedError, newestFeedDate } from '../../functions/ranking/lib/feed-document';
import { isPublicAddress, safeFetch, UnexpectedStatus } from '../../functions/lib/http/safe-fetch';

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
  it('returns the newest RSS 2.0 item date whatever the item order, not the channel build date', () => {
    // Prepare
    const xml = rss(['Tue, 07 Jan 2025 08:00:00 GMT', 'Wed, 15 Jan 2025 09:30:00 +0100', 'Fri, 03 Jan 2025 10:00:00 GMT']);

    // Act
    const newest = newestFeedDate(xml, NOW);

    // Assess
    expect(newest?.toISOString()).toBe('2025-01-15T08:30:00.000Z');
  });

  it('returns the newest Atom entry date across updated and published', () => {
    // Prepare
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="text">Example</title>
  <updated>2025-01-19T00:00:00Z</updated>
  <entry><title>One</title><published>2025-01-10T10:00:00Z</published><updated>2025-01-11T10:00:00Z</updated></entry>
  <entry><title>Two</title><published>2025-01-12T06:00:00-05:00</published></entry>
</feed>`;

    // Act
    const newest = newestFeedDate(xml, NOW);

    // Assess
    expect(newest?.toISOString()).toBe('2025-01-12T11:00:00.000Z');
  });

  it('reads a single Atom entry with a namespace prefix and RSS 1.0 items with dc:date', () => {
    // Prepare
    const atom = `<atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:entry><atom:updated>2025-01-02T03:04:05Z</atom:updated></atom:entry></atom:feed>`;
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>Old school</title></channel>
  <item><title>A</title><dc:date>2024-12-31T23:00:00Z</dc:date></item>
  <item><title>B</title><dc:date>2024-11-30T23:00:00Z</dc:date></item>
</rdf:RDF>`;

    // Act / Assess
    expect(newestFeedDate(atom, NOW)?.toISOString()).toBe('2025-01-02T03:04:05.000Z');
    expect(newestFeedDate(rdf, NOW)?.toISOString()).toBe('2024-12-31T23:00:00.000Z');
  });

  it('returns null for a valid feed without dated posts', () => {
    // Act / Assess
    expect(newestFeedDate(rss([]), NOW)).toBeNull();
    expect(newestFeedDate(rss(['sometime last week']), NOW)).toBeNull();
    expect(newestFeedDate('<feed xmlns="http://www.w3.org/2005/Atom"></feed>', NOW)).toBeNull();
  });

  it('ignores dates far in the future and caps slightly future ones at now', () => {
    // Act
    const farFuture = newestFeedDate(rss(['Thu, 01 Jan 2099 00:00:00 GMT', 'Sun, 12 Jan 2025 00:00:00 GMT']), NOW);
    const clockSkew = newestFeedDate(rss(['Mon, 20 Jan 2025 13:00:00 GMT']), NOW);

    // Assess
    expect(farFuture?.toISOString()).toBe('2025-01-12T00:00:00.000Z');
    expect(clockSkew?.toISOString()).toBe(NOW.toISOString());
  });

  it.each([
    ['plain text', 'this is not a feed'],
    ['an HTML page', '<!DOCTYPE html><html><head><title>Blog</title></head><body><p>Hello</p></body></html>'],
    ['JSON', '{"items":[{"date":"2025-01-01"}]}'],
    ['an empty body', ''],
  ])('throws a FeedError for %s', (_label, body) => {
    // Act / Assess
    expect(() => newestFeedDate(body, NOW)).toThrow(FeedError);
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
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('accepts %s', (address) => {
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
