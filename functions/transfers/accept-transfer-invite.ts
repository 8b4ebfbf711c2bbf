import * as transferRoutes from '../../shared/routes/transfers';
import { findOrCreateUserByEmail } from '../lib/accounts';
import { getDb } from '../lib/db/service';
import { getUserByEmail } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { spendToken } from '../lib/one-time-tokens';
import { readPackage } from './lib/package';
import { issuePackageGrant } from './lib/package-grants';
import { PasswordRequired } from './lib/package-password';
import { TRANSFER_INVITE } from './lib/transfer-mail';

const INVITE_REFUSALS = {
  used: 'This link was already used. Sign in with the address it was sent to, and the files are in your received transfers.',
  expired: 'This link has expired.',
  unknown: 'This link is not valid.',
  refused: 'This link is not valid.',
} as const;

/**
 * Spends a recipient's emailed link, once, for a package grant: this transfer's package (view,
 * vote, download) for that address, and nothing else. The link signs no one in: emails get
 * forwarded, and an account is reached only by logging in. An address with no account gets one
 * made now (votes are kept per account), still without a session; the answer says so.
 */
export const handler = createHandler(transferRoutes.acceptTransferInvite, async ({ params, body, cookies }) => {
  const db = getDb();
  const now = new Date();
  const outcome = await spendToken(db, TRANSFER_INVITE, body.token, {
    now,
    check: (payload) => {
      if (payload.transferId !== params.id) throw new BadRequest(INVITE_REFUSALS.unknown, { code: 'INVALID_INVITE' });
    },
  });
  if (!outcome.spent) throw new BadRequest(INVITE_REFUSALS[outcome.failure], { reason: outcome.failure });
  const email = outcome.payload.email.trim().toLowerCase();
  // An existing account is only looked up (no login is recorded: nobody logged in).
  const existing = await getUserByEmail(db, { email });
  const { user, isNew } = existing ? { user: existing, isNew: false } : await findOrCreateUserByEmail(db, email, now);
  const grant = await issuePackageGrant(db, { transferId: params.id, email, userId: user.userId }, now);
  logger.info('Package grant from a transfer link', { transferId: params.id, userId: user.userId, isNewAccount: isNew });
  const answered = { email, expiresAt: grant.expiresAt, accountCreated: isNew };
  const view = await readPackage(
    db,
    params.id,
    { kind: 'package-grant', transferId: params.id, userId: user.userId, verifiedEmail: email },
    now,
    cookies,
  ).catch((error: unknown) => {
    // The link is spent either way: the grant is kept, and the package waits for its password.
    if (error instanceof PasswordRequired) return null;
    throw error;
  });
  if (!view) return reply({ passwordRequired: true as const, transferId: params.id, grant: answered }, { cookies: [grant.cookie] });
  return reply({ ...view, grant: answered }, { cookies: [grant.cookie] });
});
