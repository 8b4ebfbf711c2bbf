/**
 * reCAPTCHA Enterprise in the browser, for the login modal's bot check: loads Google's script once and
 * makes a token for an action. The bot check must never block a login on its own failure, so
 * every problem (no script, blocked script, slow script, execute failing) ends as `null` and
 * one console warning; the caller then carries on without a bot check.
 */

/** The login modal's action, the score assumed without a check (1: human), and the score below which Google login is off. */
export const RECAPTCHA_LOGIN_ACTION = 'login';
export const DEFAULT_RECAPTCHA_SCORE = 1;
export const RECAPTCHA_SCORE_THRESHOLD = 0.5;

/**
 * Sent instead of a real token when the build has no site key (locally and in tests): the
 * local API's assessor scores any token 1, so the endpoint is still exercised end to end.
 * A deployed build must set VITE_RECAPTCHA_SITE_KEY whenever the API has RECAPTCHA_PROJECT_ID,
 * or Google scores this placeholder 0 (invalid token) and Google login is disabled.
 */
export const LOCAL_RECAPTCHA_TOKEN = 'local';

/** Warned once when the script is unavailable or not yet loaded; login goes on without a bot check. */
export const RECAPTCHA_UNAVAILABLE_WARNING = 'reCAPTCHA is not available; continuing without a bot check';

export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/enterprise.js';
/** How long loading the script plus making a token may take before going on without it. */
export const RECAPTCHA_TIMEOUT_MS = 5_000;

interface GrecaptchaEnterprise {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: { enterprise?: GrecaptchaEnterprise };
  }
}

/** The site key baked into the build; read on each call so tests can stub it. */
export function recaptchaSiteKey(): string | undefined {
  const key = (import.meta.env.VITE_RECAPTCHA_SITE_KEY as string | undefined)?.trim();
  return key || undefined;
}

let scriptLoad: Promise<GrecaptchaEnterprise> | undefined;

/** Adds Google's script once; a failed load is forgotten (and its tag removed) so a later call retries. */
function loadEnterprise(siteKey: string): Promise<GrecaptchaEnterprise> {
  const present = window.grecaptcha?.enterprise;
  if (present) return Promise.resolve(present);
  scriptLoad ??= new Promise<GrecaptchaEnterprise>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${RECAPTCHA_SCRIPT_URL}?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.dataset.recaptcha = 'enterprise';
    script.addEventListener('load', () => {
      const enterprise = window.grecaptcha?.enterprise;
      if (enterprise) resolve(enterprise);
      else reject(new Error('The reCAPTCHA script loaded without grecaptcha.enterprise'));
    });
    script.addEventListener('error', () => reject(new Error('The reCAPTCHA script could not be loaded')));
    document.head.append(script);
  }).catch((error: unknown) => {
    scriptLoad = undefined;
    document.querySelectorAll('script[data-recaptcha="enterprise"]').forEach((tag) => tag.remove());
    throw error;
  });
  return scriptLoad;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`reCAPTCHA took longer than ${timeoutMs} ms`)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * A token for `action`: Google's when the build has a site key and the script works,
 * LOCAL_RECAPTCHA_TOKEN when the build has no site key, `null` (with a warning) otherwise.
 */
export async function getRecaptchaToken(
  action: string,
  options: { siteKey?: string | undefined; timeoutMs?: number } = {},
): Promise<string | null> {
  const siteKey = 'siteKey' in options ? options.siteKey : recaptchaSiteKey();
  if (!siteKey) return LOCAL_RECAPTCHA_TOKEN;
  try {
    const token = await withTimeout(
      loadEnterprise(siteKey).then(
        (enterprise) =>
          new Promise<string>((resolve, reject) => {
            enterprise.ready(() => {
              enterprise.execute(siteKey, { action }).then(resolve, reject);
            });
          }),
      ),
      options.timeoutMs ?? RECAPTCHA_TIMEOUT_MS,
    );
    if (!token) throw new Error('reCAPTCHA made an empty token');
    return token;
  } catch (error) {
    console.warn(RECAPTCHA_UNAVAILABLE_WARNING, error);
    return null;
  }
}

/** Shown instead of Google login when the score is below the threshold; the score helps support. */
export function botNotice(score: number, supportEmail: string): string {
  return `[rcs:${score}] We think you're a bot. If we're wrong, please reach out to us at ${supportEmail}`;
}

export const isLikelyBot = (score: number) => score < RECAPTCHA_SCORE_THRESHOLD;
