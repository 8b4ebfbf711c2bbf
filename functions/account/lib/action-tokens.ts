import { getConfig } from '../../lib/config';
import type { Db } from '../../lib/db/service';
import { getUser } from '../../lib/db/users';
import { HttpError } from '../../lib/errors';
import { defineTokenPurpose, issueToken, spendToken, type TokenPurpose } from '../../lib/one-time-tokens';

/** Actions an emailed token can complete (GET /authed/{authToken}/action/{type}). */
export const ACTION_TYPES = ['verify-email'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** An emailed action link works once, for a day. */
export const ACTION_TOKEN_LIFETIME_SECONDS = 24 * 3600;

/** What an action token stands for: the user, and the (lower-cased) address the link went to. */
export interface ActionTokenPayload {
  userId: string;
  email: string;
}

/** One token purpose per action type: a token for one action cannot be spent on another. */
const ACTION_TOKENS: Record<ActionType, TokenPurpose<ActionTokenPayload>> = {
  'verify-email': defineTokenPurpose<ActionTokenPayload>('verify-email', { lifetimeSeconds: ACTION_TOKEN_LIFETIME_SECONDS }),
};

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
 * The link in the email: `${webOrigin}/authed/<token>/action/<type>`. The web page there calls
 * GET /api/i/user/authed/{authToken}/action/{type}. Unlike login links the token is in the
 * path, not the fragment: it can reach access logs, which is acceptable only because these
 * tokens carry no session and their actions are idempotent.
 */
export function actionLinkUrl(token: string, type: ActionType, webOrigin: string = getConfig().webOrigin): string {
  return `${webOrigin}/authed/${token}/action/${type}`;
}

/** A fresh action token; only its SHA-256 is stored, so a table leak yields no usable links. */
export async function issueActionToken(
  db: Db,
  options: { purpose: ActionType; userId: string; email: string; now?: Date },
): Promise<{ token: string; url: string; expiresAt: number }> {
  const { token, expiresAt } = await issueToken(db, ACTION_TOKENS[options.purpose], {
    payload: { userId: options.userId, email: normaliseEmail(options.email) },
    now: options.now,
  });
  return { token, url: actionLinkUrl(token, options.purpose), expiresAt };
}

/**
 * Verifies the address a verify-email token was sent to, spending the token in the same
 * transaction: the token must be unused and unexpired, and the user's address must still be
 * the one the link went to (checked before, and again as the transaction's condition).
 */
export async function spendVerifyEmailToken(db: Db, token: string, now: Date = new Date()): Promise<{ userId: string }> {
  let sentTo = '';
  const outcome = await spendToken(db, ACTION_TOKENS['verify-email'], token, {
    now,
    check: async ({ userId, email }) => {
      const user = await getUser(db, { userId });
      if (!user?.email || normaliseEmail(user.email) !== email) throw actionLinkErrors.stale();
      sentTo = user.email;
    },
    together: ({ user }, { userId }) => [
      user
        .patch({ userId })
        .set({ emailVerified: true })
        .where(({ email }, { eq }) => eq(email, sentTo))
        .commit(),
    ],
  });
  if (outcome.spent) return { userId: outcome.payload.userId };
  switch (outcome.failure) {
    case 'used':
      throw actionLinkErrors.used();
    case 'expired':
      throw actionLinkErrors.expired();
    case 'refused':
      // The address changed between the read and the write.
      throw actionLinkErrors.stale();
    default:
      throw actionLinkErrors.invalid();
  }
}
