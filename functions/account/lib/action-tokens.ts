import { createHash, randomBytes } from 'node:crypto';
import { APP_NAME } from '../../../shared/constants';
import { hashToken } from '../../lib/app-auth';
import { getConfig } from '../../lib/config';
import { ACTION_TYPES, type ActionTokenItem, type ActionType } from '../../lib/db/entities/action-token';
import type { Db } from '../../lib/db/service';
import { HttpError, RateLimited } from '../../lib/errors';
import { claimCooldown, consumeRateLimit, releaseCooldown } from '../../lib/rate-limit';

/** An emailed action link works once, for a day. */
export const ACTION_TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** One verification email per address per minute, like login emails. */
export const VERIFY_EMAIL_COOLDOWN_SECONDS = 60;
/** The whole service's cap on verification emails (SES reputation and cost). */
export const VERIFY_EMAILS_PER_HOUR = 500;

const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);
const normaliseEmail = (email: string) => email.trim().toLowerCase();

export type ActionLinkErrorCode =
  'INVALID_ACTION_LINK' | 'ACTION_LINK_USED' | 'ACTION_LINK_EXPIRED' | 'ACTION_TYPE_MISMATCH' | 'ACTION_LINK_STALE';

/** Why an emailed action link cannot be spent: the message tells the person what to do next. */
export class ActionLinkError extends HttpError {
  constructor(code: ActionLinkErrorCode, message: string) {
    super(400, code, message);
  }
}

export const actionLinkErrors = {
  invalid: () => new ActionLinkError('INVALID_ACTION_LINK', 'This link is not valid. Request a new one.'),
  used: () => new ActionLinkError('ACTION_LINK_USED', 'This link was already used.'),
  expired: () =>
    new ActionLinkError('ACTION_LINK_EXPIRED', 'This link has expired (links work for 24 hours). Request a new one.'),
  typeMismatch: () => new ActionLinkError('ACTION_TYPE_MISMATCH', 'This link is not for that action.'),
  stale: () =>
    new ActionLinkError(
      'ACTION_LINK_STALE',
      'This link was sent to an address that is no longer on the account. Request a new one.',
    ),
};

export const isActionType = (value: string): value is ActionType => (ACTION_TYPES as readonly string[]).includes(value);

/**
 * The link in the email: `${webOrigin}/authed/<token>/action/<type>`, the web app's action-link page.
 * The web page there calls GET /api/i/user/authed/{authToken}/action/{type}. Unlike login
 * links the token is in the path, not the fragment: it can reach access logs, which is
 * acceptable only because these tokens carry no session and their actions are idempotent.
 */
export function actionLinkUrl(token: string, type: ActionType, webOrigin: string = getConfig().webOrigin): string {
  return `${webOrigin}/authed/${token}/action/${type}`;
}

/** A fresh 256-bit token; only its SHA-256 is stored, so a table leak yields no usable links. */
export async function issueActionToken(
  db: Db,
  options: { purpose: ActionType; userId: string; email: string; now?: Date },
): Promise<{ token: string; url: string; expiresAt: number }> {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = toSeconds(now) + ACTION_TOKEN_LIFETIME_SECONDS;
  await db.entities.actionToken
    .create({
      tokenHash: hashToken(token),
      purpose: options.purpose,
      userId: options.userId,
      email: normaliseEmail(options.email),
      createdAt: now.toISOString(),
      expiresAt,
    })
    .go();
  return { token, url: actionLinkUrl(token, options.purpose), expiresAt };
}

/** Reads an action token and says why it cannot be spent for `type`; the spend itself is conditional. */
export async function readSpendableActionToken(
  db: Db,
  token: string,
  type: string,
  now: Date = new Date(),
): Promise<ActionTokenItem> {
  const { data: stored } = await db.entities.actionToken.get({ tokenHash: hashToken(token) }).go({ consistent: true });
  if (!stored) throw actionLinkErrors.invalid();
  if (stored.purpose !== type) throw actionLinkErrors.typeMismatch();
  if (stored.usedAt) throw actionLinkErrors.used();
  // TTL deletes expired items days late: the expiry is checked here, not left to DynamoDB.
  if (stored.expiresAt <= toSeconds(now)) throw actionLinkErrors.expired();
  return stored;
}

/**
 * Verifies the address a verify-email token was sent to, spending the token in the same
 * transaction: the token must be unused and unexpired, and the user's address must still be
 * the one the link went to. A cancelled transaction is re-read to say which condition failed.
 */
export async function spendVerifyEmailToken(db: Db, token: string, now: Date = new Date()): Promise<{ userId: string }> {
  const stored = await readSpendableActionToken(db, token, 'verify-email', now);
  const nowSeconds = toSeconds(now);
  const { data: user } = await db.entities.user.get({ userId: stored.userId }).go({ consistent: true });
  if (!user?.email || normaliseEmail(user.email) !== stored.email) throw actionLinkErrors.stale();
  const { canceled } = await db.transaction
    .write(({ actionToken, user: users }) => [
      actionToken
        .patch({ tokenHash: stored.tokenHash })
        .set({ usedAt: now.toISOString() })
        .where(({ usedAt, expiresAt }, { notExists, gt }) => `${notExists(usedAt)} AND ${gt(expiresAt, nowSeconds)}`)
        .commit(),
      users
        .patch({ userId: stored.userId })
        .set({ emailVerified: true })
        .where(({ email }, { eq }) => eq(email, user.email ?? ''))
        .commit(),
    ])
    .go();
  if (canceled) {
    // Between the reads and the write a concurrent request spent the link, or the address changed.
    await readSpendableActionToken(db, token, 'verify-email', now);
    throw actionLinkErrors.stale();
  }
  return { userId: stored.userId };
}

/** The per-address cooldown key: a hash, so rate-limit items do not hold addresses in clear. */
export const verifyEmailCooldownKey = (email: string) =>
  `verify-email:${createHash('sha256').update(normaliseEmail(email)).digest('hex')}`;
const VERIFY_EMAIL_GLOBAL_KEY = 'verify-email:all';

/** One verification email per address per minute, then the service-wide hourly cap. */
export async function enforceVerifyEmailLimits(db: Db, email: string, now: Date = new Date()): Promise<void> {
  const perAddress = await claimCooldown(db, { key: verifyEmailCooldownKey(email), seconds: VERIFY_EMAIL_COOLDOWN_SECONDS, now });
  if (!perAddress.allowed) {
    const seconds = perAddress.retryAfterSeconds;
    throw new RateLimited(
      `A verification link was just sent to this address. Wait ${seconds} second${seconds === 1 ? '' : 's'} before asking for another.`,
      seconds,
    );
  }
  const overall = await consumeRateLimit(db, {
    key: VERIFY_EMAIL_GLOBAL_KEY,
    limit: VERIFY_EMAILS_PER_HOUR,
    windowSeconds: 3600,
    now,
  });
  if (!overall.allowed) {
    await releaseVerifyEmailCooldown(db, email);
    throw new RateLimited(
      'Too many verification emails are being sent right now. Try again in a few minutes.',
      overall.retryAfterSeconds,
    );
  }
}

/** Gives the address its cooldown back when its email could not be sent, so a retry works at once. */
export function releaseVerifyEmailCooldown(db: Db, email: string): Promise<void> {
  return releaseCooldown(db, verifyEmailCooldownKey(email));
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const VERIFY_NOTE = 'This link works once, for 24 hours. If you did not ask for it, ignore this email.';

export function verificationEmail(url: string): { subject: string; text: string; html: string } {
  const text = [`Confirm this address for your ${APP_NAME} account with this link:`, '', url, '', VERIFY_NOTE, ''].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Confirm this address for your ${APP_NAME} account with this link:</p>
<p><a href="${escapeHtml(url)}">Verify my email address</a></p>
<p style="color:#555">${VERIFY_NOTE}</p>
</body></html>`;
  return { subject: `Verify your ${APP_NAME} email address`, text, html };
}
