import type { Browser, BrowserContext } from 'playwright-core';
import { createApiClient, type SignedInUser } from './api-client';

/**
 * A browser context of its own for a person signed in for real (a login link spent at the
 * confirm endpoint), with the cookies the login would have set: the session and the hint the
 * page reads to know it may ask who is signed in.
 */
export async function signedInBrowser(
  browser: Browser,
  runtime: { url: string },
  label: string,
  viewport = { width: 1280, height: 800 },
  options: { superuser?: boolean } = {},
): Promise<{ person: SignedInUser; context: BrowserContext }> {
  const person = await createApiClient(runtime).signIn(label, { superuser: options.superuser === true });
  const context = await browser.newContext({ viewport });
  await context.addCookies([
    { name: 'ssoat', value: person.token, url: runtime.url, httpOnly: true, secure: true, sameSite: 'Lax' },
    { name: 'ssoh', value: '1', url: runtime.url, secure: true, sameSite: 'Lax' },
  ]);
  return { person, context };
}
