import * as accountRoutes from '../../shared/routes/account';
import { DEFAULT_EMAIL_PREFERENCES, type EmailPreferences } from '../../shared/schemas/account';
import { getDb } from '../lib/db/service';
import { getUser, setEmailPreferences } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { UNSUBSCRIBE_TOKEN } from '../lib/notification-mail';
import { readToken } from '../lib/one-time-tokens';

const INVALID_LINK =
  'This unsubscribe link is not valid any more. Sign in and turn notification emails off in your email preferences.';

/** Read, not spent: unsubscribing twice is unsubscribing. Only notification emails go off. */
export const handler = createHandler(accountRoutes.unsubscribeNotificationEmails, async ({ query }) => {
  const db = getDb();
  const stored = await readToken(db, UNSUBSCRIBE_TOKEN, query.token);
  if (!stored || stored.expiresAt <= Math.floor(Date.now() / 1000)) throw new BadRequest(INVALID_LINK);
  const user = await getUser(db, { userId: stored.payload.userId });
  // The account was deleted since: there is nobody left to email.
  if (!user) return { unsubscribed: true as const };
  const preferences = { ...DEFAULT_EMAIL_PREFERENCES, ...(user.emailPreferences as Partial<EmailPreferences> | undefined) };
  await setEmailPreferences(db, { userId: user.userId, emailPreferences: { ...preferences, notificationEmails: false } });
  return { unsubscribed: true as const };
});
