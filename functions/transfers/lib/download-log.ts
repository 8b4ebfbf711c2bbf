import type { DownloadLogEntry } from '../../../shared/schemas/transfers';
import { hashToken } from '../../lib/app-auth';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';
import { failedConditions, isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { Gone } from '../../lib/errors';
import { newEntityId } from '../../lib/files/stored-files';
export { ALL_FILES } from './download-log-page';
import type { PackageCaller } from './transfer-access';
import { tellSenderLimitReached } from './transfer-mail';

/** A visitor asking again for the same file (or the zip) within this time is taking the same download. */
export const REPEAT_DOWNLOAD_MS = 3_600_000;

/** 410, as for an expired transfer: the package still opens, but its files are not served any more. */
export class DownloadLimitReached extends Gone {
  constructor(downloadLimit: number) {
    super('This transfer has reached its download limit: ask the sender to send the files again.', {
      code: 'DOWNLOAD_LIMIT_REACHED',
      downloadLimit,
    });
  }
}

/**
 * A preview (a thumbnail, the lightbox, a text or media preview) is a view, not a download: it is
 * neither logged nor counted. But a package whose limit is spent serves no bytes at all, so a
 * preview link is refused then too, as a download would be. The sender's own views never are.
 */
export function requireDownloadsLeft(transfer: Pick<TransferItem, 'downloadLimit' | 'downloadCount'>): void {
  const limit = transfer.downloadLimit;
  if (limit !== undefined && (transfer.downloadCount ?? 0) >= limit) throw new DownloadLimitReached(limit);
}

/** Who takes a download, as the log names them and as repeats are told apart. */
export interface Downloader {
  kind: DownloadLogEntry['downloader'];
  userId: string | null;
  /**
   * The same for the same person: their account (however they came: session, emailed link or
   * link), or an anonymous visitor's link grant. Stored hashed.
   */
  visitorKey: string;
}

export function downloaderOf(caller: PackageCaller, member: TransferMemberItem | null): Downloader {
  if (caller.kind === 'package-grant') return { kind: 'recipient', userId: caller.userId, visitorKey: `user:${caller.userId}` };
  if (caller.userId === null)
    return { kind: 'anonymous', userId: null, visitorKey: caller.kind === 'link-visitor' ? caller.visitorId : 'anonymous' };
  return { kind: member ? 'recipient' : 'user', userId: caller.userId, visitorKey: `user:${caller.userId}` };
}

/**
 * Claims a download of a package for the sender's log and, when the transfer has a download
 * limit, counts it. One transaction: the visitor's claim on that file (on condition that none of
 * theirs runs: a repeat within the hour is served again but neither logged nor counted), the log
 * entry, and under a limit the transfer's count, on condition that it is still below the limit,
 * so however many downloads race, exactly the limit's number are served. Answers whether it
 * counted; throws DownloadLimitReached (410) once the limit is spent. The sender's own downloads
 * are neither logged nor counted.
 */
export async function claimDownload(
  db: Db,
  options: { transfer: TransferItem; downloader: Downloader; fileId: string; fileName: string; now: Date },
): Promise<'counted' | 'repeat'> {
  const { transfer, downloader, fileId, fileName, now } = options;
  const { transferId, expiresAt } = transfer;
  const limit = transfer.downloadLimit;
  const nowMs = now.getTime();
  const visitorHash = hashToken(`${transferId}:${downloader.visitorKey}`);
  const outcome = await retryContendedWrite({ what: 'downloading these files' }, async () => {
    const result = await db.transaction
      .write(({ transferDownloadClaim, transferDownload, transfer: transfers }) => [
        transferDownloadClaim
          .put({ transferId, visitorHash, fileId, claimedUntil: nowMs + REPEAT_DOWNLOAD_MS, expiresAt })
          .where(({ claimedUntil }, { notExists, lte }) => `${notExists(claimedUntil)} OR ${lte(claimedUntil, nowMs)}`)
          .commit(),
        transferDownload
          .create({
            transferId,
            downloadId: newEntityId(),
            at: now.toISOString(),
            fileId,
            fileName,
            downloader: downloader.kind,
            ...(downloader.userId ? { userId: downloader.userId } : {}),
            expiresAt,
          })
          .commit(),
        ...(limit === undefined
          ? []
          : [
              transfers
                .patch({ transferId })
                .add({ downloadCount: 1 })
                .where(({ downloadCount }, { lt }) => lt(downloadCount, limit))
                .commit(),
            ]),
      ])
      .go();
    if (!result.canceled) return 'counted' as const;
    const failed = failedConditions(result);
    if (failed.includes(0)) return 'repeat' as const;
    if (limit !== undefined && failed.includes(2)) throw new DownloadLimitReached(limit);
    return lostRace(result);
  });
  if (outcome === 'counted' && limit !== undefined) await noteLimitReached(db, transfer, limit, now);
  return outcome;
}

/** Tells the sender, once, that the last allowed download was taken: the first to see the count at the limit claims the telling. */
async function noteLimitReached(db: Db, transfer: TransferItem, limit: number, now: Date): Promise<void> {
  const { data: current } = await db.entities.transfer.get({ transferId: transfer.transferId }).go({ consistent: true });
  if (!current || (current.downloadCount ?? 0) < limit || current.limitReachedAt) return;
  try {
    await db.entities.transfer
      .patch({ transferId: transfer.transferId })
      .set({ limitReachedAt: now.toISOString() })
      .where(({ limitReachedAt }, { notExists }) => notExists(limitReachedAt))
      .go();
  } catch (error) {
    if (isConditionalCheckFailed(error)) return;
    throw error;
  }
  await tellSenderLimitReached(db, current, now);
}
