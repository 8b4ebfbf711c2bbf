import { safeFetch } from '../../../lib/http/safe-fetch';
import { createPoliteFetch, type PoliteFetchOptions, type RawFetch } from './polite-fetch';
import type { SourceFetch } from './source-adapter';

/** What the deployment says about where sources are read from (the function's config). */
export interface SourceFetchSettings {
  /** Locally only: loopback and private addresses may be fetched (the fixture server is one). */
  fetchPrivateAddresses: boolean;
  /** Locally only: a fixture server that answers instead of the web (SOURCE_FIXTURE_ORIGIN). */
  sourceFixtureOrigin: string | undefined;
}

/**
 * The fixture server's address for a web address: the original host becomes the first path
 * segment (https://medium.com/a?format=json → <origin>/medium.com/a?format=json), so one local
 * server answers for every platform, and what it answers maps back without ambiguity.
 */
export function toFixtureAddress(url: string, fixtureOrigin: string): string {
  const target = new URL(url);
  return `${fixtureOrigin}/${target.host}${target.pathname}${target.search}`;
}

/** The web address a fixture-server address stands for (https: the platforms serve nothing else). */
export function fromFixtureAddress(url: string, fixtureOrigin: string): string {
  const prefix = `${fixtureOrigin}/`;
  return url.startsWith(prefix) ? `https://${url.slice(prefix.length)}` : url;
}

/**
 * How much sooner the fixture server is asked again than a real host would be. It is our own
 * server on this machine, with no one to spare: a full second between its answers only made the
 * demo and the suites wait (30 s of one suite). The turns, budgets and robots.txt stay as they
 * are; the pause itself is proven against a fake clock (test/unit/polite-fetch.test.ts).
 */
const FIXTURE_PACE = 10;

/**
 * The fetch a collection run or a preview reads sources with: the polite fetcher over the
 * SSRF-safe one. With a fixture origin set (the local runtime, offline), every request goes to
 * that server instead, and the addresses it answers with are mapped back to the web's, so the
 * adapters, the per-host turns and budgets and what gets stored are the same as in production;
 * only the pause between two requests is shorter (FIXTURE_PACE).
 */
export function createSourceFetch(
  settings: SourceFetchSettings,
  options: Omit<PoliteFetchOptions, 'fetch'> = {},
): SourceFetch {
  const fixtureOrigin = settings.sourceFixtureOrigin;
  const raw: RawFetch = async (url, request) => {
    const result = await safeFetch(fixtureOrigin ? toFixtureAddress(url, fixtureOrigin) : url, {
      accept: request.accept,
      userAgent: request.userAgent,
      headers: request.headers,
      allowPrivateAddresses: settings.fetchPrivateAddresses,
    });
    return fixtureOrigin ? { ...result, url: fromFixtureAddress(result.url, fixtureOrigin) } : result;
  };
  const paced =
    fixtureOrigin && options.minIntervalMs !== undefined
      ? { ...options, minIntervalMs: options.minIntervalMs / FIXTURE_PACE }
      : options;
  return createPoliteFetch({ ...paced, fetch: raw });
}
