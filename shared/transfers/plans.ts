/**
 * What a sender's plan allows. The payments issue decides who is on 'pro'; until a subscription
 * exists, everyone is on 'free'. The server checks every limit; the web app shows the same
 * numbers so a sender learns of a limit before pressing send.
 */
export const PLAN_IDS = ['free', 'pro'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface PlanLimits {
  readonly planId: PlanId;
  /** Days a transfer may stay available. */
  readonly maxExpiryDays: number;
  readonly defaultExpiryDays: number;
  /** Bytes of all of a transfer's files together. */
  readonly maxTransferBytes: number;
  readonly maxRecipients: number;
}

const GB = 1_000_000_000;

export const PLAN_LIMITS: Readonly<Record<PlanId, PlanLimits>> = {
  free: { planId: 'free', maxExpiryDays: 7, defaultExpiryDays: 7, maxTransferBytes: 2 * GB, maxRecipients: 50 },
  pro: { planId: 'pro', maxExpiryDays: 365, defaultExpiryDays: 7, maxTransferBytes: 200 * GB, maxRecipients: 500 },
};

/** Files in one transfer: a listing of the package stays a handful of reads. */
export const MAX_FILES_PER_TRANSFER = 1_000;
