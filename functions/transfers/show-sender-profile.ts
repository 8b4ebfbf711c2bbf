import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { senderSeo } from './lib/screens';
import { toPerson } from './lib/transfer-views';

export const handler = createHandler(transferRoutes.showSenderProfile, async ({ params }) => {
  const user = await getUser(getDb(), { userId: params.userId });
  if (!user) throw new NotFound('There is no such user.');
  const person = toPerson(user, user.userId);
  return { seo: senderSeo(person.name || `@${person.username}`), person, memberSince: user.createdAt };
});
