import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

interface Entry {
  result: APIGatewayProxyStructuredResultV2;
  storedAt: number;
  expiresAt: number;
}

const SHARED_MAX_AGE = /(?:^|,)\s*s-maxage=(\d+)/;
const MAX_ENTRIES = 2_000;

/**
 * What CloudFront does for /api/* in AWS (infra/cdk web stack): answers marked
 * `public, s-maxage=N` are reused for N seconds, keyed by path and query string. The key here
 * also holds the Origin, because the answer carries that origin's CORS headers.
 */
export function createEdgeCache(clock: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  return {
    key(path: string, search: string, origin: string | undefined): string {
      return `${path}${search}|${origin ?? ''}`;
    },

    lookup(key: string): { result: APIGatewayProxyStructuredResultV2; ageSeconds: number } | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const now = clock();
      if (now >= entry.expiresAt) {
        entries.delete(key);
        return undefined;
      }
      return { result: entry.result, ageSeconds: Math.floor((now - entry.storedAt) / 1000) };
    },

    store(key: string, result: APIGatewayProxyStructuredResultV2): void {
      if (result.statusCode !== 200 || result.cookies?.length) return;
      const cacheControl = String(result.headers?.['cache-control'] ?? '');
      const maxAge = SHARED_MAX_AGE.exec(cacheControl)?.[1];
      if (!cacheControl.includes('public') || !maxAge || Number(maxAge) === 0) return;
      const now = clock();
      entries.delete(key);
      entries.set(key, { result, storedAt: now, expiresAt: now + Number(maxAge) * 1000 });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    },
  };
}

export type EdgeCache = ReturnType<typeof createEdgeCache>;
