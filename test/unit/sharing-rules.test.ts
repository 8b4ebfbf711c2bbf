import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkShareUrl, hostsOf, SHARE_ALERTS, type ShareUrlCheck } from '../../shared/stories/sharing-rules';

const OPTIONS = { ownHosts: hostsOf(['https://toppubs.example', 'https://manystories.example']) };
const check = (url: unknown): ShareUrlCheck => checkShareUrl(url, OPTIONS);
const titleOf = (url: unknown) => {
  const result = check(url);
  return result.ok ? 'ok' : result.alert.title;
};

describe('the sharing rules', () => {
  it.each([
    ['https://medium.com/@ana/how-we-ship-1a2b3c', 'ok'],
    ['https://blog.example.org/posts/hello', 'ok'],
    ['ftp://blog.example.org/file', 'Invalid url'],
    ['javascript:alert(1)', 'Invalid url'],
    ['blog.example.org/posts/hello', 'Invalid url'],
    ['https://localhost/story', 'Public addresses only'],
    ['https://user:secret@blog.example.org/story', 'No passwords in links'],
    ['', 'Invalid url'],
  ])('%s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it.each([
    // It does start with https://: what refused it is the local host, and the alert says so.
    ['https://localhost:3700/pub/x', SHARE_ALERTS.localAddress],
    ['http://intranet/posts/hello', SHARE_ALERTS.localAddress],
    ['https://blog.localhost/posts/hello', SHARE_ALERTS.localAddress],
    ['https://ana:hunter2@blog.example.org/story', SHARE_ALERTS.credentials],
    [`https://blog.example.org/${'a'.repeat(2_100)}`, SHARE_ALERTS.tooLong],
    ['blog.example.org/posts/hello', SHARE_ALERTS.invalid],
  ])('names the rule that refused %s', (url, alert) => {
    // Act
    const result = check(url);

    // Assess
    expect(result).toEqual({ ok: false, alert });
  });

  it('says what each refusal means in words a person can act on', () => {
    // Assess
    expect(SHARE_ALERTS.localAddress).toEqual({
      title: 'Public addresses only',
      text: "That is a local address (such as localhost), which only your own computer or network can open: share the story's public address.",
    });
    expect(SHARE_ALERTS.tooLong.text).toBe(
      "Addresses longer than 2,048 characters cannot be shared: share the story's own address, without the extra parameters.",
    );
    expect(SHARE_ALERTS.credentials.text).toBe('Remove the name and password before the @ in the address, then share it.');
  });

  it('refuses the platform own host as its own even when it is local (development on localhost)', () => {
    // Prepare
    const local = { ownHosts: hostsOf(['http://localhost:3700']) };

    // Act
    const result = checkShareUrl('https://localhost:3700/pub/x', local);

    // Assess
    expect(result).toEqual({ ok: false, alert: SHARE_ALERTS.externalOnly });
  });

  it('refuses anything that is not a string as an invalid url', () => {
    for (const input of [undefined, null, 42, {}, ['https://a.example/x']]) expect(titleOf(input)).toBe('Invalid url');
  });

  it.each([
    ['https://medium.com/p/abc/edit', 'Forbidden url'],
    ['https://medium.com/me/stats', 'Forbidden url'],
    ['https://blog.example.org/DRAFT/post', 'Forbidden url'],
    ['https://blog.example.org/settings', 'Forbidden url'],
    // Near misses: the words inside a longer segment are fine.
    ['https://blog.example.org/editorial/post', 'ok'],
    ['https://blog.example.org/posts/my-draft-thoughts', 'ok'],
    ['https://blog.example.org/statistics-for-everyone', 'ok'],
  ])('forbidden path segments: %s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it('names the forbidden paths in its text', () => {
    const result = check('https://medium.com/me');
    expect(result).toEqual({ ok: false, alert: SHARE_ALERTS.forbiddenPath });
    for (const segment of ['/edit', '/draft', '/me', '/settings', '/stats'])
      expect(SHARE_ALERTS.forbiddenPath.text).toContain(segment);
  });

  it.each([
    ['https://toppubs.example/@ana', 'External stories only'],
    ['https://www.toppubs.example/topic/tech', 'External stories only'],
    ['https://manystories.example/s/abc', 'External stories only'],
    ['https://toppubs.example.org/story', 'ok'],
    ['https://nottoppubs.example/story', 'ok'],
  ])('own and sibling hosts: %s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it('gives the spec text for the platform own hosts', () => {
    expect(check('https://toppubs.example/x')).toEqual({
      ok: false,
      alert: { title: 'External stories only', text: 'Please only share stories from outside of this platform.' },
    });
  });

  it.each([
    ['https://www.linkedin.com/pulse/why-we-moved-ana-lima', 'ok'],
    ['https://uk.linkedin.com/pulse/why-we-moved-ana-lima', 'ok'],
    ['https://www.linkedin.com/posts/ana-lima_activity-123', 'Stories only'],
    ['https://www.linkedin.com/in/ana-lima', 'Stories only'],
    ['https://www.producthunt.com/stories/how-we-launched', 'ok'],
    ['https://www.producthunt.com/posts/some-app', 'Stories only'],
    ['https://twitter.com/ana/status/1', 'Stories only'],
    ['https://x.com/ana/status/1', 'Stories only'],
    ['https://m.facebook.com/ana/posts/1', 'Stories only'],
    ['https://www.instagram.com/p/abc', 'Stories only'],
    ['https://vimeo.com/123', 'Stories only'],
    ['https://www.youtube.com/watch?v=abc', 'Stories only'],
    ['https://youtu.be/abc', 'Stories only'],
    ['https://box.com/story', 'ok'],
    ['https://youtube.company.example/story', 'ok'],
  ])('stories, not social updates: %s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it.each([
    ['https://www.pinterest.com/pin/1', 'Original stories only'],
    ['https://mix.com/!abc', 'Original stories only'],
    ['https://flipboard.com/@ana/mag', 'Original stories only'],
    ['https://www.bloglovin.com/blogs/x', 'Original stories only'],
    ['https://bit.ly/3abc', 'Original stories only'],
    ['https://mixpanel.com/blog/story', 'ok'],
  ])('aggregators and shorteners: %s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it.each([
    ['https://www.infowars.com/posts/x', 'No conspiracy sites'],
    ['https://naturalnews.com/2026-01-01-x.html', 'No conspiracy sites'],
    ['https://naturalnewsletter.example/x', 'ok'],
  ])('conspiracy sites: %s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it.each([
    ['https://couponfollow.com/site/x', 'No spamming'],
    ['https://blog.example.org/acme-discount-code-2026', 'No spamming'],
    ['https://blog.example.org/post?c=coupon-code', 'No spamming'],
    ['https://blog.example.org/why-i-use-NordVPN', 'No spamming'],
    ['https://blog.example.org/surfshark%20review', 'No spamming'],
    ['https://blog.example.org/discount-rates-explained', 'ok'],
    ['https://blog.example.org/vpn-basics', 'ok'],
  ])('spam: %s -> %s', (url, expected) => {
    expect(titleOf(url)).toBe(expected);
  });

  it('normalises the url it accepts: host case, fragment, tracking parameters, trailing slash', () => {
    expect(check('  HTTPS://Blog.Example.ORG/Posts/Hello/?utm_source=x&id=7&fbclid=y#comments ')).toEqual({
      ok: true,
      url: 'https://blog.example.org/Posts/Hello?id=7',
    });
    expect(check('https://blog.example.org/')).toEqual({ ok: true, url: 'https://blog.example.org' });
  });
});

describe('the sharing rules on any input', () => {
  const KNOWN_TITLES = new Set<string>(Object.values(SHARE_ALERTS).map((alert) => alert.title));

  it('never throws, and answers ok or one of its alerts, for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string().map((rest) => `https://${rest}`),
          fc.webUrl({ withFragments: true, withQueryParameters: true }),
        ),
        (input) => {
          const result = check(input);
          expect(result.ok || KNOWN_TITLES.has(result.alert.title)).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('accepts a web url only as an absolute http(s) url it can parse again', () => {
    fc.assert(
      fc.property(fc.webUrl({ withFragments: true, withQueryParameters: true }), (input) => {
        const result = check(input);
        if (!result.ok) return;
        const again = new URL(result.url);
        expect(['http:', 'https:']).toContain(again.protocol);
        expect(again.hash).toBe('');
        expect(check(result.url)).toEqual(result);
      }),
      { numRuns: 2_000 },
    );
  });
});
