import { describe, expect, it } from 'vitest';
import { createEdgeCache } from '../../infra/local/edge-cache';

const publicAnswer = (seconds: number) => ({
  statusCode: 200,
  headers: { 'cache-control': `public, max-age=${seconds}, s-maxage=${seconds}`, etag: 'W/"abc"' },
  body: '{"items":[]}',
});

describe('the local edge cache (CloudFront in front of /api)', () => {
  it('reuses a public answer for its s-maxage, then lets the next request through', () => {
    // Prepare
    let now = 1_000_000;
    const cache = createEdgeCache(() => now);
    const key = cache.key('/api/i/toppubs/load/pubs', '?page=2', 'http://localhost:3000');
    cache.store(key, publicAnswer(60));

    // Act
    now += 59_000;
    const fresh = cache.lookup(key);
    now += 1_000;
    const expired = cache.lookup(key);

    // Assess
    expect(fresh?.result.body).toBe('{"items":[]}');
    expect(fresh?.ageSeconds).toBe(59);
    expect(expired).toBeUndefined();
  });

  it('never keeps private, no-store, failed or cookie-setting answers', () => {
    // Prepare
    const cache = createEdgeCache();
    const answers = [
      { statusCode: 200, headers: { 'cache-control': 'no-store' }, body: '{}' },
      { statusCode: 200, headers: { 'cache-control': 'private, max-age=60' }, body: '{}' },
      { statusCode: 404, headers: { 'cache-control': 'public, s-maxage=60' }, body: '{}' },
      { ...publicAnswer(60), cookies: ['ssoat=secret'] },
    ];

    // Act
    answers.forEach((answer, index) => cache.store(`k${index}`, answer));

    // Assess
    expect(answers.map((_, index) => cache.lookup(`k${index}`))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('keys by path, query and origin, since the answer carries that origin CORS headers', () => {
    // Prepare
    const cache = createEdgeCache();
    cache.store(cache.key('/api/x', '?page=1', 'https://a.example'), publicAnswer(60));

    // Act
    const sameOrigin = cache.lookup(cache.key('/api/x', '?page=1', 'https://a.example'));
    const otherOrigin = cache.lookup(cache.key('/api/x', '?page=1', 'https://b.example'));
    const otherQuery = cache.lookup(cache.key('/api/x', '?page=2', 'https://a.example'));

    // Assess
    expect(sameOrigin).toBeDefined();
    expect(otherOrigin).toBeUndefined();
    expect(otherQuery).toBeUndefined();
  });
});
