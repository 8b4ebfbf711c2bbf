import { accountRoutes } from '../../shared/routes/account';
import { APP_NAME } from '../../shared/constants';
import { getDb } from '../lib/db/service';
import { ServiceUnavailable } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { sendMail } from '../lib/mailer';
import { enforceLoginEmailLimits, issueLoginLink, normaliseEmail, releaseLoginEmailCooldown } from './lib/login-links';

const SUBJECT = `Your ${APP_NAME} login link`;
const VALIDITY_NOTE = 'This link works once, for 10 minutes. If you did not ask for it, ignore this email.';

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function loginEmail(url: string): { subject: string; text: string; html: string } {
  const text = [`Log in to ${APP_NAME} with this link:`, '', url, '', VALIDITY_NOTE, ''].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Log in to ${APP_NAME} with this link:</p>
<p><a href="${escapeHtml(url)}">Log in to ${APP_NAME}</a></p>
<p style="color:#555">${VALIDITY_NOTE}</p>
</body></html>`;
  return { subject: SUBJECT, text, html };
}

/**
 * Emails a one-time login link. No account is looked up or created here (that happens at the
 * first successful login), so the answer and the work are the same for known and unknown
 * addresses: the endpoint does not reveal who has an account.
 */
export const handler = createHandler(accountRoutes.sendLoginEmail, async ({ query, body }) => {
  const db = getDb();
  const email = normaliseEmail(query.email);
  await enforceLoginEmailLimits(db, email);
  const link = await issueLoginLink(db, { email, contextData: body?.contextData });
  try {
    await sendMail({ to: email, ...loginEmail(link.url) });
  } catch (error) {
    // Only the error's name and status: the message may quote the request, which holds the link.
    const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    logger.error('Could not send a login email', { errorName: name, httpStatusCode: $metadata?.httpStatusCode });
    await releaseLoginEmailCooldown(db, email).catch(() => undefined);
    throw new ServiceUnavailable('We could not send the login email right now. Please try again in a minute.');
  }
  return { sent: true as const };
});
