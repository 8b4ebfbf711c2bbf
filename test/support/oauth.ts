import type { routes } from '../../shared/routes';
import { type ApiClient, expectOk, type Session, sessionTokenOf } from './api-client';

export interface StartedLogin {
  url: URL;
  /** The browser-binding cookie, as the browser would send it back. */
  cookie: string;
}

export interface CallbackAnswer {
  status: number;
  location: string | null;
  cookies: string[];
  sessionToken: string | undefined;
}

type LoginUrlRoute = typeof routes.googleLoginUrl | typeof routes.twitterLoginUrl;
type CallbackRoute = typeof routes.googleCallback | typeof routes.twitterCallback;

/** What the web app does first: ask for the authorization URL (the answer sets the binding cookie). */
export async function startOauthLogin(
  api: ApiClient,
  route: LoginUrlRoute,
  options: { binding: RegExp; returnTo?: string; as?: Session },
): Promise<StartedLogin> {
  const answer = await api.call(route, {
    query: options.returnTo === undefined ? {} : { returnTo: options.returnTo },
    ...(options.as ? { as: options.as } : {}),
  });
  expectOk(answer);
  const value = options.binding.exec(answer.cookies[0] ?? '')?.[1];
  if (!value) throw new Error(`No binding cookie in ${answer.cookies.join(' | ')}`);
  return { url: new URL(answer.body.url), cookie: `toppubs_oauth=${value}` };
}

/** The top window at the provider: the mock answers at once with a redirect to our callback. */
export async function authorizeAtProvider(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.text();
  if (response.status !== 302) throw new Error(`The provider answered ${response.status} instead of redirecting back`);
  return response.headers.get('location') ?? '';
}

/**
 * The provider's redirect back to us, followed by hand so cookies and Location can be read: the
 * browser arrives at the callback route with the provider's query string and its own cookies.
 */
export async function callback(
  api: ApiClient,
  route: CallbackRoute,
  callbackUrl: string,
  options: { cookie?: string; as?: Session } = {},
): Promise<CallbackAnswer> {
  const url = new URL(callbackUrl);
  if (url.pathname !== route.path) throw new Error(`${callbackUrl} is not the ${route.path} callback`);
  const answer = await api.call(route, {
    query: Object.fromEntries(url.searchParams),
    ...(options.cookie ? { headers: { cookie: options.cookie } } : {}),
    ...(options.as ? { as: options.as } : {}),
  });
  return { status: answer.status, location: answer.location, cookies: answer.cookies, sessionToken: sessionTokenOf(answer) };
}
