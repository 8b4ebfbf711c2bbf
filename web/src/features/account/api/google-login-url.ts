import { loginReturnPath, MAX_RETURN_PATH } from '@shared/return-path';
import { ApiError, endpoint } from '../../../lib/api-client';
import { isLikelyBot } from '../../../lib/recaptcha';
import type { routes } from '@shared/routes';
import { assessLoginBotScore } from './assess-recaptcha';

const googleLoginUrlEndpoint = endpoint<typeof routes.googleLoginUrl>('GET', '/api/i/user/auth/login/google/url');

/**
 * Where to come back after a login: the current path and query, or just the path when too long,
 * and the home page from a page that logs out or in (loginReturnPath).
 */
export function currentReturnTo(location: Pick<Location, 'pathname' | 'search'> = window.location): string {
  const full = `${location.pathname}${location.search}`;
  return loginReturnPath(full.length <= MAX_RETURN_PATH ? full : location.pathname);
}

/** Google's authorization URL for a login that lands back on `returnTo`. */
export async function getGoogleLoginUrl(returnTo: string): Promise<string> {
  const { url } = await googleLoginUrlEndpoint({ query: { returnTo } });
  return url;
}

/**
 * Sends the whole page, not just a frame, to `url` (login providers refuse to be shown in a frame). Falls
 * back to this window when it is not framed or a sandboxed frame may not navigate its top.
 */
export function navigateTopWindow(url: string): void {
  const top = window.top;
  if (top && top !== window) {
    try {
      top.location.href = url;
      return;
    } catch {
      // A sandboxed frame without allow-top-navigation: navigate the frame itself.
    }
  }
  window.location.href = url;
}

/** The API's answer when starting a Google login needs a fresh pass from the bot check. */
export const BOT_CHECK_REQUIRED = 'BOT_CHECK_REQUIRED';

/**
 * Asks for Google's URL for the current page and goes there. Rejects when the API refuses.
 * Where reCAPTCHA is configured, the API wants the pass the modal's bot check left in a cookie;
 * a pass works once and for a few minutes, so when it is gone the check runs once more and, if
 * it passes, the URL is asked for again.
 */
export async function startGoogleLogin(): Promise<void> {
  let url: string;
  try {
    url = await getGoogleLoginUrl(currentReturnTo());
  } catch (error) {
    if (!(error instanceof ApiError && error.code === BOT_CHECK_REQUIRED)) throw error;
    if (isLikelyBot(await assessLoginBotScore())) throw error;
    url = await getGoogleLoginUrl(currentReturnTo());
  }
  navigateTopWindow(url);
}
