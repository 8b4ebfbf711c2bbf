import { PLAN_LIMITS, type PlanLimits } from '../../../shared/transfers/plans';
import type { Db } from '../../lib/db/service';

/**
 * The limits of a sender's plan. Subscriptions arrive with the payments work; until then every
 * sender is on the free plan. Handlers ask here, so that change is made in one place.
 */
export async function planOf(_db: Db, _userId: string): Promise<PlanLimits> {
  return PLAN_LIMITS.free;
}
