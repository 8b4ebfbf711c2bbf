import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildSitemap, MAX_SITEMAP_URLS } from '../../functions/web-pages/lib/sitemap';
import { jsonForHtml } from '../../functions/web-pages/lib/html';
import { isPagePath, PAGE_REQUEST_FUNCTION_CODE, type ViewerRequest } from '../../infra/web-edge-policy';

const ORIGIN = 'https://toppubs.example';
const locations = (xml: string | null) => [...(xml ?? '').matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
const paths = (count: number) => Array.from({ length: count }, (_, index) => `/@user${index}`);

describe('the sitemap', () => {
  it('is one sitemap of every page up to 50,000 addresses, with no parts', () => {
    // Act
    const sitemap = buildSitemap({ origin: ORIGIN, paths: paths(MAX_SITEMAP_URLS), otherSitemaps: ['/other.xml'] }, undefined);

    // Assess
    expect(sitemap).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(locations(sitemap)).toHaveLength(MAX_SITEMAP_URLS);
    expect(locations(sitemap).at(-1)).toBe(`${ORIGIN}/@user49999`);
    expect(buildSitemap({ origin: ORIGIN, paths: paths(10), otherSitemaps: [] }, 1)).toBeNull();
  });

  it('becomes an index of parts of at most 50,000 past that, listing the other sitemaps too', () => {
    // Prepare
    const input = { origin: ORIGIN, paths: paths(MAX_SITEMAP_URLS * 2 + 1), otherSitemaps: ['/api/i/ourTransfers/sitemap/xml'] };

    // Act
    const index = buildSitemap(input, undefined);
    const parts = [1, 2, 3].map((part) => buildSitemap(input, part));

    // Assess
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locations(index)).toEqual([
      `${ORIGIN}/sitemaps/1.xml`,
      `${ORIGIN}/sitemaps/2.xml`,
      `${ORIGIN}/sitemaps/3.xml`,
      `${ORIGIN}/api/i/ourTransfers/sitemap/xml`,
    ]);
    expect(parts.map((part) => locations(part).length)).toEqual([MAX_SITEMAP_URLS, MAX_SITEMAP_URLS, 1]);
    expect(locations(parts[2] ?? null)).toEqual([`${ORIGIN}/@user100000`]);
    // Every page once, in order, across the parts
    expect(parts.flatMap(locations)).toEqual(input.paths.map((path) => `${ORIGIN}${path}`));
    expect(buildSitemap(input, 4)).toBeNull();
    expect(buildSitemap(input, 0)).toBeNull();
  });

  it('escapes addresses for XML', () => {
    // Act
    const sitemap = buildSitemap({ origin: ORIGIN, paths: ["/topic/a&b'<c>"], otherSitemaps: [] }, undefined);

    // Assess
    expect(locations(sitemap)).toEqual([`${ORIGIN}/topic/a&amp;b&apos;&lt;c&gt;`]);
  });
});

describe("a page's data block", () => {
  it('cannot be closed or turned into a comment by what people write, and reads back the same', () => {
    // Prepare
    const hostile = { title: '</script><script>alert(1)</script><!-- \u2028' };

    // Act
    const written = jsonForHtml(JSON.stringify(hostile));

    // Assess
    expect(written).not.toMatch(/<|\u2028/);
    expect(JSON.parse(written)).toEqual(hostile);
  });
});

describe('the edge function of the public pages', () => {
  const run = (uri: string, querystring: ViewerRequest['querystring'] = {}) =>
    runInNewContext(
      `${PAGE_REQUEST_FUNCTION_CODE};handler(${JSON.stringify({ request: { uri, querystring } })})`,
    ) as ViewerRequest;

  it('sends pages to the renderer with their raw path, keeping only a topic board filter', () => {
    // Act
    const topic = run('/topic/data-science/growing', {
      active: { value: 'true' },
      utm_source: { value: 'news' },
      fbclid: { value: 'x' },
    });
    const profile = run('/@jane%20doe');
    const forged = run('/about', { path: { value: '/me' } });

    // Assess
    expect(topic).toEqual({
      uri: '/api/i/web/page',
      querystring: { path: { value: '%2Ftopic%2Fdata-science%2Fgrowing' }, active: { value: 'true' } },
    });
    expect(profile.querystring).toEqual({ path: { value: '%2F%40jane%2520doe' } });
    expect(forged.querystring).toEqual({ path: { value: '%2Fabout' } });
  });

  it('answers robots.txt and the sitemaps from their own routes', () => {
    // Act
    const answers = [
      run('/robots.txt', { x: { value: '1' } }),
      run('/sitemap.xml'),
      run('/sitemaps/12.xml'),
      run('/sitemaps/x.xml'),
    ];

    // Assess
    expect(answers.map((answer) => [answer.uri, answer.querystring])).toEqual([
      ['/api/i/web/robots', {}],
      ['/api/i/web/sitemap', {}],
      ['/api/i/web/sitemap', { part: { value: '12' } }],
      ['/api/i/web/page', { path: { value: '%2Fsitemaps%2Fx.xml' } }],
    ]);
  });

  it('takes the public pages and leaves the rest of the site to the bucket', () => {
    // Assess
    expect(
      [
        '/',
        '/active',
        '/growing/active',
        '/recent',
        '/topic/ux',
        '/topics/2',
        '/@jane',
        '/about',
        '/stories',
        '/pub/x',
        '/robots.txt',
        '/sitemap.xml',
      ].every(isPagePath),
    ).toBe(true);
    expect(
      [
        '/me',
        '/login/confirm',
        '/assets/index.js',
        '/transfer/abc/package',
        '/api/i/web/page',
        '/og/toppubs-1500.png',
        '/favicon.svg',
      ].some(isPagePath),
    ).toBe(false);
  });
});
