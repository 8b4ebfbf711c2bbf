import { ssoRoutes } from '../../shared/routes/sso';
import { getDb } from '../lib/db/service';
import { Conflict, HttpError, ServiceUnavailable, Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { sendMail } from '../lib/mailer';
import { enforceVerifyEmailLimits, issueActionToken, releaseVerifyEmailCooldown, verificationEmail } from './lib/action-tokens';

/**
 * Emails the caller a new link to verify their address: `${webOrigin}/authed/<token>/action/verify-email`,
 * valid once for 24 hours. An already verified address answers 409 (no email goes out), and an
 * account without an address answers 400.
 */
export const handler = createHandler(ssoRoutes.sendVerificationEmail, async ({ caller }) => {
  const db = getDb();
  const { data: user } = await db.entities.user.get({ userId: caller.userId }).go();
  if (!user) throw new Unauthorized();
  if (!user.email) throw new HttpError(400, 'NO_EMAIL', 'Your account has no email address to verify.');
  if (user.emailVerified) throw new Conflict('Your email address is already verified.');
  const email = user.email;
  await enforceVerifyEmailLimits(db, email);
  const link = await issueActionToken(db, { purpose: 'verify-email', userId: user.userId, email });
  try {
    await sendMail({ to: email, ...verificationEmail(link.url) });
  } catch (error) {
    // Only the error's name and status: the message may quote the request, which holds the link.
    const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    logger.error('Could not send a verification email', { errorName: name, httpStatusCode: $metadata?.httpStatusCode });
    await releaseVerifyEmailCooldown(db, email).catch(() => undefined);
    throw new ServiceUnavailable('We could not send the verification email right now. Please try again in a minute.');
  }
  return { sent: true as const };
});
