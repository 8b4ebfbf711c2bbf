import { WEB_APPLICATION_ID } from '../../shared/constants';
import { expect } from 'vitest';

/** The session cookie as the API sets it. */
export const SESSION_COOKIE = /^ssoat=([^;]+); Path=\/; HttpOnly; Secure; SameSite=Lax/;

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

/** What the web app does first: ask for the authorization URL (the answer sets the binding cookie). */
export async function startOauthLogin(url: string, binding: RegExp, headers: Record<string, string> = {}): Promise<StartedLogin> {
  // The web app's API client sends the application id on every call; starting a login changes state.
  const response = await fetch(url, { headers: { 'x-application-id': WEB_APPLICATION_ID, ...headers } });
  const body = (await response.json()) as { url: string };
  expect(response.status).toBe(200);
  const value = binding.exec(response.headers.getSetCookie()[0] ?? '')?.[1];
  if (!value) throw new Error(`No binding cookie in ${response.headers.getSetCookie().join(' | ')}`);
  return { url: new URL(body.url), cookie: `toppubs_oauth=${value}` };
}

/** The top window at the provider: the mock answers at once with a redirect to our callback. */
export async function authorizeAtProvider(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return response.headers.get('location') ?? '';
}

/** The provider's redirect back to us, followed by hand so cookies and Location can be read. */
export async function callback(callbackUrl: string, cookie?: string): Promise<CallbackAnswer> {
  const response = await fetch(callbackUrl, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  await response.text();
  const cookies = response.headers.getSetCookie();
  const sessionToken = cookies.map((value) => SESSION_COOKIE.exec(value)?.[1]).find(Boolean);
  return { status: response.status, location: response.headers.get('location'), cookies, sessionToken };
}
