import { PLAN_LIMITS, type PlanId } from './plans';

/**
 * What a file request may take, by its requester's plan: how many uploads in all and how many
 * bytes across them. One upload is a transfer of the requester's, so the plan's size limit per
 * transfer (and the file count per transfer) holds for each upload too. A requester may set
 * lower limits on a request, never higher ones.
 */
export interface FileRequestLimits {
  readonly planId: PlanId;
  readonly maxUploads: number;
  readonly maxRequestBytes: number;
  /** Bytes of one upload: the plan's limit for a transfer. */
  readonly maxUploadBytes: number;
  readonly defaultExpiryDays: number;
  readonly maxExpiryDays: number;
}

export const FILE_REQUEST_LIMITS: Readonly<Record<PlanId, FileRequestLimits>> = {
  free: {
    planId: 'free',
    maxUploads: 50,
    maxRequestBytes: PLAN_LIMITS.free.maxTransferBytes,
    maxUploadBytes: PLAN_LIMITS.free.maxTransferBytes,
    defaultExpiryDays: PLAN_LIMITS.free.defaultExpiryDays,
    maxExpiryDays: PLAN_LIMITS.free.maxExpiryDays,
  },
  pro: {
    planId: 'pro',
    maxUploads: 1_000,
    maxRequestBytes: PLAN_LIMITS.pro.maxTransferBytes,
    maxUploadBytes: PLAN_LIMITS.pro.maxTransferBytes,
    defaultExpiryDays: PLAN_LIMITS.pro.defaultExpiryDays,
    maxExpiryDays: PLAN_LIMITS.pro.maxExpiryDays,
  },
};

export const MAX_UPLOADER_NAME_LENGTH = 100;
export const MAX_UPLOADER_NOTE_LENGTH = 1_000;
export const MAX_REQUEST_TITLE_LENGTH = 200;
export const MAX_REQUEST_MESSAGE_LENGTH = 2_000;

/** The public page a request's link opens. */
export const fileRequestPath = (requestId: string) => `/transfer/request/${encodeURIComponent(requestId)}`;
