import { randomBytes } from 'node:crypto';
import { hashToken } from '../../lib/app-auth';
import type { Db } from '../../lib/db/service';
import { HttpError } from '../../lib/errors';
import { isConditionalCheckFailed } from '../../lib/rate-limit';

/** A sign-on code works once, for this long: the sibling app's server exchanges it at once. */
export const SSO_CODE_LIFETIME_SECONDS = 60;

const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

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
 * The origin of a return URL when it is one of the allowed sibling apps, else null. Origins are
 * compared exactly (scheme, host and port), so look-alike hosts and other ports do not pass.
 */
export function allowedReturnOrigin(returnUrl: string, allowedOrigins: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  return allowedOrigins.includes(url.origin) ? url.origin : null;
}

/** 'https://App.example.com/' -> 'https://app.example.com'; null when it is not an http(s) origin. */
export function normaliseOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * A fresh 256-bit code for one sibling app; only its SHA-256 is stored, bound to the user, the
 * app's origin and the session that asked (ending that session, e.g. by SSO logout, kills it).
 */
export async function issueSsoCode(
  db: Db,
  options: { userId: string; origin: string; sessionTokenHash: string; now?: Date },
): Promise<{ code: string; expiresAt: number }> {
  const now = options.now ?? new Date();
  const code = randomBytes(32).toString('base64url');
  const expiresAt = toSeconds(now) + SSO_CODE_LIFETIME_SECONDS;
  await db.entities.ssoCode
    .create({
      codeHash: hashToken(code),
      userId: options.userId,
      origin: options.origin,
      sessionTokenHash: options.sessionTokenHash,
      createdAt: now.toISOString(),
      expiresAt,
    })
    .go();
  return { code, expiresAt };
}

/**
 * Spends a sign-on code exactly once, for the origin it was issued to. The first read only
 * chooses the error message; the conditional update (unused, unexpired, same origin) is what
 * guarantees one exchange even when two race. A code whose asking session has ended since is
 * refused as not valid.
 */
export async function spendSsoCode(db: Db, code: string, origin: string, now: Date = new Date()): Promise<{ userId: string }> {
  const codeHash = hashToken(code);
  const nowSeconds = toSeconds(now);
  const { data: stored } = await db.entities.ssoCode.get({ codeHash }).go({ consistent: true });
  if (!stored) throw invalidCode();
  if (stored.usedAt) throw usedCode();
  // TTL deletes expired items days late: the expiry is checked here, not left to DynamoDB.
  if (stored.expiresAt <= nowSeconds) throw expiredCode();
  if (stored.origin !== origin) throw wrongOrigin();
  const { data: session } = await db.entities.session.get({ tokenHash: stored.sessionTokenHash }).go({ consistent: true });
  if (!session || session.expiresAt <= nowSeconds || session.userId !== stored.userId) throw invalidCode();
  try {
    await db.entities.ssoCode
      .patch({ codeHash })
      .set({ usedAt: now.toISOString() })
      .where(
        (attributes, { notExists, gt, eq }) =>
          `${notExists(attributes.usedAt)} AND ${gt(attributes.expiresAt, nowSeconds)} AND ${eq(attributes.origin, origin)}`,
      )
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Between the read and the write a concurrent exchange spent the code.
    const { data: current } = await db.entities.ssoCode.get({ codeHash }).go({ consistent: true });
    throw current?.usedAt ? usedCode() : expiredCode();
  }
  return { userId: stored.userId };
}
