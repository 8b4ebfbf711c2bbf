import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const twitterLoginUrlEndpoint = endpoint<typeof routes.twitterLoginUrl>('GET', '/api/i/user/auth/login/twitter/url');

/** Twitter's authorization URL for a login (or, when signed in, a connection) that lands back on `returnTo`. */
export async function getTwitterLoginUrl(returnTo: string): Promise<string> {
  const { url } = await twitterLoginUrlEndpoint({ query: { returnTo } });
  return url;
}

/** Connects Twitter to the signed-in account: goes to Twitter, which sends the browser back to /me. */
export async function startTwitterConnect(): Promise<void> {
  window.location.href = await getTwitterLoginUrl('/me');
}
