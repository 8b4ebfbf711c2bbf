import type { Db } from '../../lib/db/service';
import { appOfOrigin } from '../../lib/app-auth';
import { Forbidden, HttpError } from '../../lib/errors';
import { defineTokenPurpose, issueToken, spendToken } from '../../lib/one-time-tokens';
import { isSessionAlive } from '../../lib/sessions';

/** A sign-on code works once, for this long: the sibling app's server exchanges it at once. */
export const SSO_CODE_LIFETIME_SECONDS = 60;

/** What a sign-on code stands for: the user, the app origin it was sent to, the session that asked. */
export interface SsoCodePayload {
  userId: string;
  /** The origin of the return URL the code was sent to; the exchange must name the same. */
  origin: string;
  /** The token hash (key) of the session that asked: a code dies with that session. */
  sessionTokenHash: string;
}

export const SSO_CODE = defineTokenPurpose<SsoCodePayload>('sso-code', { lifetimeSeconds: SSO_CODE_LIFETIME_SECONDS });

export class SsoAppNotAllowed extends HttpError {
  constructor() {
    super(400, 'SSO_APP_NOT_ALLOWED', 'That app is not allowed to sign in here.');
  }
}

/** Why a sign-on code cannot be exchanged: the sibling app should start the sign-on again. */
export class SsoCodeError extends HttpError {
  constructor(code: 'INVALID_SSO_CODE' | 'SSO_CODE_USED' | 'SSO_CODE_EXPIRED' | 'SSO_CODE_WRONG_ORIGIN', message: string) {
    super(400, code, message);
  }
}

const invalidCode = () => new SsoCodeError('INVALID_SSO_CODE', 'This sign-on code is not valid. Start the sign-on again.');
const usedCode = () => new SsoCodeError('SSO_CODE_USED', 'This sign-on code was already used. Start the sign-on again.');
const expiredCode = () =>
  new SsoCodeError('SSO_CODE_EXPIRED', 'This sign-on code has expired (codes work for 60 seconds). Start the sign-on again.');
const wrongOrigin = () => new SsoCodeError('SSO_CODE_WRONG_ORIGIN', 'This sign-on code was issued to another app.');

/**
 * The origin of a return URL when single sign-on may send a code there: the web app's own
 * origin, or one a registered app owns; else null. Origins are compared exactly (scheme, host
 * and port), so look-alike hosts and other ports do not pass.
 */
export async function signOnOrigin(db: Db, returnUrl: string, webOrigin: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (url.origin === webOrigin) return url.origin;
  return (await appOfOrigin(db, { origin: url.origin })) ? url.origin : null;
}

/**
 * A fresh code for one sibling app; only its SHA-256 is stored, bound to the user, the app's
 * origin and the session that asked (ending that session, e.g. by SSO logout, kills it).
 */
export async function issueSsoCode(
  db: Db,
  options: { userId: string; origin: string; sessionTokenHash: string; now?: Date },
): Promise<{ code: string; expiresAt: number }> {
  const { userId, origin, sessionTokenHash } = options;
  const { token, expiresAt } = await issueToken(db, SSO_CODE, {
    payload: { userId, origin, sessionTokenHash },
    now: options.now,
  });
  return { code: token, expiresAt };
}

const issuedToAnotherApp = () => new Forbidden('This sign-on code was issued to another app.');

/**
 * Spends a sign-on code exactly once: only for the app registered for the origin the code was
 * sent to (403 for any other app, and the code stays good for its own), only when that app names
 * the same origin, and only while the session that asked for it is alive (otherwise: not valid).
 */
export async function spendSsoCode(
  db: Db,
  options: { code: string; origin: string; appId: string; now?: Date },
): Promise<{ userId: string }> {
  const { origin, appId, now = new Date() } = options;
  const outcome = await spendToken(db, SSO_CODE, options.code, {
    now,
    check: async (payload) => {
      if ((await appOfOrigin(db, { origin: payload.origin })) !== appId) throw issuedToAnotherApp();
      if (payload.origin !== origin) throw wrongOrigin();
      if (!(await isSessionAlive(db, { tokenHash: payload.sessionTokenHash, userId: payload.userId, now }))) {
        throw invalidCode();
      }
    },
  });
  if (outcome.spent) return { userId: outcome.payload.userId };
  switch (outcome.failure) {
    case 'used':
      throw usedCode();
    case 'expired':
      throw expiredCode();
    default:
      throw invalidCode();
  }
}
