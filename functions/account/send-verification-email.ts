import * as ssoRoutes from '../../shared/routes/sso';
import { getDb } from '../lib/db/service';
import { requireUserOfSession } from '../lib/db/users';
import { Conflict, HttpError } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { sendMail } from '../lib/mailer';
import { issueActionToken } from './lib/action-tokens';
import { verificationEmail } from './lib/emails';

/**
 * Emails the caller a new link to verify their address: `${webOrigin}/authed/<token>/action/verify-email`,
 * valid once for 24 hours. An already verified address answers 409 (no email goes out), and an
 * account without an address answers 400.
 */
export const handler = createHandler(ssoRoutes.sendVerificationEmail, async ({ caller }) => {
  const db = getDb();
  const user = await requireUserOfSession(db, { userId: caller.userId });
  if (!user.email) throw new HttpError(400, 'NO_EMAIL', 'Your account has no email address to verify.');
  if (user.emailVerified) throw new Conflict('Your email address is already verified.');
  const email = user.email;
  await sendMail(db, verificationEmail, {
    to: email,
    data: async () => ({ url: (await issueActionToken(db, { purpose: 'verify-email', userId: user.userId, email })).url }),
  });
  return { sent: true as const };
});
