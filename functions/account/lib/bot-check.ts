import { RECAPTCHA_PASSING_SCORE } from '../../../shared/schemas/recaptcha';
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/service';
import { HttpError } from '../../lib/errors';
import { defineTokenPurpose, issueToken, spendToken } from '../../lib/one-time-tokens';
import { clientNetwork, describeWait, hashedKeyPart, type LimitRule } from '../../lib/rate-limit';

/**
 * The bot check, enforced on the server when reCAPTCHA is configured: a passing assessment
 * leaves a one-time pass in an HttpOnly cookie of that browser, and starting a Google login
 * spends it. A pass lives a few minutes, so it cannot be collected in bulk and used later; the
 * cookie is sent only to the Google login routes.
 */
export const BOT_PASS_LIFETIME_SECONDS = 5 * 60;
export const BOT_PASS_COOKIE = 'toppubs_human';
const BOT_PASS_COOKIE_PATH = '/api/i/user/auth/login/google';

const BOT_PASS = defineTokenPurpose<{ issuedFor: 'google-login' }>('bot-pass', { lifetimeSeconds: BOT_PASS_LIFETIME_SECONDS });

/** Assessments one client network may ask for per 10 minutes (each one is billed by Google). */
export const ASSESSMENTS_PER_CLIENT_PER_TEN_MINUTES = 20;

export class BotCheckRequired extends HttpError {
  constructor() {
    super(
      403,
      'BOT_CHECK_REQUIRED',
      'We could not confirm that a person is signing in. Close the login window, open it again and retry, or log in by email.',
    );
  }
}

/**
 * The bot check is enforced only with reCAPTCHA configured. Locally there is no reCAPTCHA
 * project, every token scores 1, and login works without a pass.
 */
export const isBotCheckEnforced = (config: Pick<Config, 'recaptchaProjectId'>) => Boolean(config.recaptchaProjectId);

export const passesBotCheck = (score: number) => score >= RECAPTCHA_PASSING_SCORE;

/** A fresh pass and the cookie that carries it (the raw value lives only there). */
export async function issueBotPass(db: Db, options: { now?: Date } = {}): Promise<{ value: string; cookie: string }> {
  const { token } = await issueToken(db, BOT_PASS, { payload: { issuedFor: 'google-login' }, now: options.now });
  const cookie = `${BOT_PASS_COOKIE}=${token}; Path=${BOT_PASS_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=${BOT_PASS_LIFETIME_SECONDS}`;
  return { value: token, cookie };
}

/** Removes an earlier pass from a browser whose latest assessment did not pass. */
export const clearedBotPassCookie = () =>
  `${BOT_PASS_COOKIE}=; Path=${BOT_PASS_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

/** Spends the pass in the request's cookie; 403 BotCheckRequired without a live, unused one. */
export async function requireBotPass(db: Db, cookies: Readonly<Record<string, string>>): Promise<void> {
  const value = cookies[BOT_PASS_COOKIE];
  if (!value) throw new BotCheckRequired();
  const outcome = await spendToken(db, BOT_PASS, value);
  if (!outcome.spent) throw new BotCheckRequired();
}

/** The per-client limit on assessments. */
export function assessmentLimits(sourceIp: string): LimitRule[] {
  return [
    {
      kind: 'window',
      key: `recaptcha:net:${hashedKeyPart(clientNetwork(sourceIp))}`,
      limit: ASSESSMENTS_PER_CLIENT_PER_TEN_MINUTES,
      windowSeconds: 600,
      message: (wait) => `Too many bot checks from your network. Try again in ${describeWait(wait)}.`,
      chargeEvenIfRefused: true,
    },
  ];
}
