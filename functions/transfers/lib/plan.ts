import { PLAN_LIMITS, type PlanLimits } from '../../../shared/transfers/plans';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { Db } from '../../lib/db/service';
import { hasPro } from '../../lib/payments/pro-plan-access';

/**
 * The limits of a sender's plan now: Pro while their subscription gives it, Free otherwise.
 * Handlers ask here on every request, so an upgrade raises the limits at once and they fall
 * back when the subscription ends.
 */
export async function planOf(db: Db, userId: string, now: Date = new Date()): Promise<PlanLimits> {
  return (await hasPro(db, userId, now)) ? PLAN_LIMITS.pro : PLAN_LIMITS.free;
}

/**
 * A draft made on Free whose sender has since gone Pro takes Pro's limits: asked only when a
 * Free limit would refuse something, so a sender within Free's limits pays no extra read.
 * Answers the draft as it now is (unchanged when the sender is still on Free).
 */
export async function withCurrentPlanLimits(db: Db, draft: TransferItem, now: Date = new Date()): Promise<TransferItem> {
  if (draft.planId === 'pro' || draft.status !== 'draft') return draft;
  const limits = await planOf(db, draft.ownerId, now);
  if (limits.planId !== 'pro') return draft;
  const { data } = await db.entities.transfer
    .patch({ transferId: draft.transferId })
    .set({ planId: 'pro', maxTransferBytes: limits.maxTransferBytes, maxRecipients: limits.maxRecipients })
    .where((attributes, { eq }) => eq(attributes.status, 'draft'))
    .go({ response: 'all_new' });
  return data as TransferItem;
}
