import * as transferRoutes from '../../shared/routes/transfers';
import { findOrCreateUserByEmail } from '../lib/accounts';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { verifiedEmailOfUser } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { spendToken } from '../lib/one-time-tokens';
import { createSession, sessionCookies } from '../lib/sessions';
import { readPackage } from './lib/package';
import { TRANSFER_INVITE } from './lib/transfer-mail';

const config = getConfig();

const INVITE_REFUSALS = {
  used: 'This link was already used. Sign in with the address it was sent to, and the files are in your received transfers.',
  expired: 'This link has expired.',
  unknown: 'This link is not valid.',
  refused: 'This link is not valid.',
} as const;

/**
 * Spends a recipient's emailed link, once: it proves the address, so the recipient is signed in
 * (their account is made now if they had none, as at a first email login) and gets the package.
 */
export const handler = createHandler(transferRoutes.acceptTransferInvite, async ({ params, body, headers }) => {
  const db = getDb();
  const now = new Date();
  const outcome = await spendToken(db, TRANSFER_INVITE, body.token, {
    now,
    check: (payload) => {
      if (payload.transferId !== params.id) throw new BadRequest(INVITE_REFUSALS.unknown, { code: 'INVALID_INVITE' });
    },
  });
  if (!outcome.spent) throw new BadRequest(INVITE_REFUSALS[outcome.failure], { reason: outcome.failure });
  const { user, isNew } = await findOrCreateUserByEmail(db, outcome.payload.email, now);
  const session = await createSession(db, user.userId, { userAgent: headers['user-agent'] });
  logger.info('Signed in by a transfer link', { userId: user.userId, isNewAccount: isNew });
  const view = await readPackage(
    db,
    params.id,
    {
      kind: 'user',
      userId: user.userId,
      sessionId: session.sessionId,
      isSuperUser: user.isSuperUser ?? false,
      verifiedEmail: verifiedEmailOfUser(user),
    },
    now,
  );
  return reply(view, { cookies: sessionCookies(session.token, { domain: config.sessionCookieDomain }) });
});
