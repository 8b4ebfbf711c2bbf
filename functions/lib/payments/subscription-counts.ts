/**
 * The dashboards' subscription counts (active, past due) of a shop, a product and a grade, kept
 * by ADDs as subscriptions change status. A count is moved only by the request whose
 * conditional write applied the change (a checkout's new subscription, or the sync that wrote
 * the gateway's newer state), so a webhook and a route racing on the same change count it once.
 */
import { lostRace, retryContendedWrite } from '../contended-writes';
import type { SubscriptionItem } from '../db/entities/subscription';
import { gradeScope, productScope, shopScope } from '../db/entities/store-figures';
import type { Db } from '../db/service';

type Status = SubscriptionItem['status'];
type Counted = Pick<SubscriptionItem, 'sellerId' | 'productId' | 'priceId'>;
/** The entities a write transaction hands its callback. */
type WriteEntities = Parameters<Parameters<Db['transaction']['write']>[0]>[0];

/** The figures' 'total' period: what is true now, beside the day-by-day items. */
const TOTAL_PERIOD = 'total';

const isActive = (status: Status | null) => (status === 'Active' ? 1 : 0);
const isPastDue = (status: Status | null) => (status === 'Past Due' ? 1 : 0);

/** How the two counts move for a change of status; null when neither does. */
function countDelta(from: Status | null, to: Status): { activeSubscriptions: number; pastDueSubscriptions: number } | null {
  const activeSubscriptions = isActive(to) - isActive(from);
  const pastDueSubscriptions = isPastDue(to) - isPastDue(from);
  return activeSubscriptions === 0 && pastDueSubscriptions === 0 ? null : { activeSubscriptions, pastDueSubscriptions };
}

/**
 * The writes that move the counts of the subscription's shop, product and grade, to commit in
 * a transaction of the caller's (beside the write that applied the change); none when the
 * change moves no count. `update` and not `upsert`: an upsert would also set the item's other
 * figures to their defaults, and a first ADD creates the item.
 */
export function subscriptionCountWrites(
  entities: Pick<WriteEntities, 'storeFigure'>,
  subscription: Counted,
  from: Status | null,
  to: Status,
) {
  const delta = countDelta(from, to);
  if (!delta) return [];
  return [shopScope, productScope(subscription.productId), gradeScope(subscription.priceId)].map((scope) =>
    entities.storeFigure.update({ merchantAccountId: subscription.sellerId, scope, period: TOTAL_PERIOD }).add(delta).commit(),
  );
}

/**
 * Moves the counts for a subscription that went from `from` (null: it is new) to `to`, in one
 * transaction. Call it only after a conditional write proved this request applied the change.
 * A transaction that collided with another on the same counters is sent again as it was, under
 * the one policy of optimistic writes (retryContendedWrite): it is all or nothing, so a retry
 * cannot count twice. Given up, it stays a server error and not TooBusy: the change it counts
 * was applied already, so TooBusy's "nothing changed" would be untrue.
 */
export async function countSubscriptionChange(db: Db, subscription: Counted, from: Status | null, to: Status): Promise<void> {
  if (from === to || !countDelta(from, to)) return;
  const giveUp = (cause: unknown) =>
    new Error(`The subscription counts of ${subscription.sellerId} could not be updated`, { cause });
  await retryContendedWrite({ what: 'counting subscriptions', giveUp }, async () => {
    const result = await db.transaction
      .write(({ storeFigure }) => subscriptionCountWrites({ storeFigure }, subscription, from, to))
      .go();
    // Nothing here has a condition: only a collision with another transaction cancels it.
    return result.canceled ? lostRace(result) : undefined;
  });
}
