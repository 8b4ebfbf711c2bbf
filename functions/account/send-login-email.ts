import * as accountRoutes from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { clientAddress } from '../lib/http/client-address';
import { createHandler } from '../lib/http/create-handler';
import { sendMail } from '../lib/mailer';
import { loginEmail, loginEmailCallerLimits } from './lib/emails';
import { issueLoginLink, normaliseEmail } from './lib/login-links';

const config = getConfig();

/**
 * Emails a one-time login link. No account is looked up or created here (that happens at the
 * first successful login), so the answer and the work are the same for known and unknown
 * addresses: the endpoint does not reveal who has an account. Limits, in order: the client's
 * network (10 per 10 minutes, 50 a day), the address as asked for from that network (10 a day),
 * the address whoever asks (one a minute), the service (2,000 an hour); each refusal is a 429
 * saying when to try again. No limit of the address alone lasts longer than a minute, so nobody
 * can lock someone else out of email login.
 */
export const handler = createHandler(accountRoutes.sendLoginEmail, async ({ query, body, event }) => {
  const db = getDb();
  const email = normaliseEmail(query.email);
  const sourceIp = clientAddress(event, config.edgeOriginToken);
  await sendMail(db, loginEmail, {
    to: email,
    clientIp: sourceIp,
    callerLimits: loginEmailCallerLimits(sourceIp),
    // Issued only once every limit has passed: a refused request leaves no link behind.
    data: async () => ({ url: (await issueLoginLink(db, { email, contextData: body?.contextData })).url }),
  });
  return { sent: true as const };
});
