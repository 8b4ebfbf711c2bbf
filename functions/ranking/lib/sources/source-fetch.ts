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
 * The fetch a collection run or a preview reads sources with: the polite fetcher over the
 * SSRF-safe one. With a fixture origin set (the local runtime, offline), every request goes to
 * that server instead, and the addresses it answers with are mapped back to the web's, so the
 * adapters, the per-host turns and budgets and what gets stored are the same as in production.
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
  return createPoliteFetch({ ...options, fetch: raw });
}
