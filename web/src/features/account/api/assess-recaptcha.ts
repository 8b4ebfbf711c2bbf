import { endpoint } from '../../../lib/api-client';
import {
  DEFAULT_RECAPTCHA_SCORE,
  getRecaptchaToken,
  RECAPTCHA_LOGIN_ACTION,
  RECAPTCHA_UNAVAILABLE_WARNING,
} from '../../../lib/recaptcha';
import type { routes } from '@shared/routes';

const assessRecaptchaEndpoint = endpoint<typeof routes.assessRecaptcha>('POST', '/api/e/recaptcha/assess');

/** Scores a reCAPTCHA token made for `actionName` (POST /api/e/recaptcha/assess). */
export function assessRecaptcha(body: { token: string; actionName: string }, signal?: AbortSignal) {
  return assessRecaptchaEndpoint({ body, ...(signal ? { signal } : {}) });
}

/**
 * The login modal's bot check: a token for 'login', scored by the API. Without a token (no
 * script) there is nothing to assess, and a failed assessment counts as no check: both answer
 * the default score 1 (DEFAULT_RECAPTCHA_SCORE), so the bot check never blocks a login by failing.
 */
export async function assessLoginBotScore(signal?: AbortSignal): Promise<number> {
  const token = await getRecaptchaToken(RECAPTCHA_LOGIN_ACTION);
  if (token === null || signal?.aborted) return DEFAULT_RECAPTCHA_SCORE;
  try {
    const { riskAnalysis } = await assessRecaptcha({ token, actionName: RECAPTCHA_LOGIN_ACTION }, signal);
    return riskAnalysis.score;
  } catch (error) {
    if (!signal?.aborted) console.warn(RECAPTCHA_UNAVAILABLE_WARNING, error);
    return DEFAULT_RECAPTCHA_SCORE;
  }
}
