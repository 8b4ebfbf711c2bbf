import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { getDb } from '../lib/db/service';
import { getUserByEmail, getUserByUsername } from '../lib/db/users';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { PLATFORM_SELLER_ID, readProSubscription } from '../lib/payments/pro-plan-access';
import { readRefundsOfPerson, toProChargeView } from './lib/pro-refunds';
import { listRecentPayments } from './lib/subscriptions';

// Access 'superuser': only they may look a person up by email, so addresses cannot be enumerated.
export const handler = createHandler(subscriptionRoutes.listProPaymentsOfPerson, async ({ query }) => {
  const db = getDb();
  const person = query.person.includes('@')
    ? await getUserByEmail(db, { email: query.person })
    : await getUserByUsername(db, { username: query.person.replace(/^@/, '') });
  if (!person) throw new NotFound(`Nobody has the ${query.person.includes('@') ? 'address' : 'username'} ${query.person}.`);
  const [subscription, payments, refunds] = await Promise.all([
    readProSubscription(db, person.userId),
    listRecentPayments(db, person.userId),
    readRefundsOfPerson(db, person.userId),
  ]);
  return {
    person: { userId: person.userId, username: person.username, email: person.email ?? null },
    subscription: subscription
      ? { subscriptionId: subscription.subscriptionId, status: subscription.status, paidThroughDate: subscription.paidThroughDate ?? null }
      : null,
    // Their shops' charges are the shops' to refund (a merchant's dashboard), not ours.
    charges: payments
      .filter((payment) => payment.sellerId === PLATFORM_SELLER_ID)
      .map((payment) => toProChargeView(payment, refunds.get(payment.transactionId) ?? [])),
  };
});
