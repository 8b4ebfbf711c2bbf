import type { FileView, MemberView, PackageFile, TransferSummary, Vote } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';
import type { UserItem } from '../../lib/db/entities/user';
import { getUsers } from '../../lib/db/users';
import { toFileView } from '../../lib/files/stored-files';
import { isExpired } from './transfer-access';

export { toFileView };

type Person = TransferSummary['owner'];

/** A person as a transfer shows them: never their address. */
export function toPerson(user: UserItem | undefined, userId: string): Person {
  return user
    ? { userId: user.userId, username: user.username, name: user.name ?? '', imageUrl: user.imageUrl ?? null }
    : { userId, username: '', name: 'A former user', imageUrl: null };
}

export function toTransferSummary(transfer: TransferItem, owner: Person, now: Date): TransferSummary {
  return {
    id: transfer.transferId,
    title: transfer.title,
    message: transfer.message,
    status: transfer.status,
    owner,
    createdAt: transfer.createdAt,
    finalizedAt: transfer.finalizedAt ?? null,
    expiresAt: transfer.availableUntil,
    expired: isExpired(transfer, now),
    fileCount: transfer.fileCount,
    totalBytes: transfer.totalBytes,
    recipientCount: transfer.recipientCount,
    sendTimingMs: transfer.sendTimingMs ?? null,
    ...(transfer.requestId
      ? {
          receivedThrough: {
            requestId: transfer.requestId,
            uploaderName: transfer.uploaderName ?? '',
            uploaderNote: transfer.uploaderNote ?? '',
          },
        }
      : {}),
    delivery: transfer.delivery ?? 'email',
    downloadLimit: transfer.downloadLimit ?? null,
    downloadCount: transfer.downloadCount ?? 0,
    previewCount: transfer.previewCount ?? 0,
    ...(transfer.passwordHash ? { passwordProtected: true as const } : {}),
  };
}

/** Summaries of several transfers, their senders read in one batch. */
export async function summariesOf(db: Db, transfers: readonly TransferItem[], now: Date): Promise<TransferSummary[]> {
  const owners = await getUsers(db, { userIds: transfers.map((transfer) => transfer.ownerId) });
  const byId = new Map(owners.map((user) => [user.userId, user]));
  return transfers.map((transfer) => toTransferSummary(transfer, toPerson(byId.get(transfer.ownerId), transfer.ownerId), now));
}

/** A file with its votes. `file` may carry more (a manifest's object key): only the view's fields are answered. */
export function toPackageFile(
  file: FileView,
  counts: { likes: number; dislikes: number } | undefined,
  myVote: Vote | null,
): PackageFile {
  return {
    id: file.id,
    purpose: file.purpose,
    transferId: file.transferId,
    name: file.name,
    size: file.size,
    type: file.type,
    status: file.status,
    uploadMethod: file.uploadMethod,
    lastModified: file.lastModified,
    checksum: file.checksum,
    createdAt: file.createdAt,
    readyAt: file.readyAt,
    likes: counts?.likes ?? 0,
    dislikes: counts?.dislikes ?? 0,
    myVote,
  };
}

export function toMemberView(member: TransferMemberItem, user: UserItem | undefined): MemberView {
  return {
    email: member.email,
    userId: member.userId ?? null,
    name: user ? user.name || user.username : null,
    addedAt: member.addedAt,
    notifiedAt: member.notifiedAt ?? null,
    firstDownloadAt: member.firstDownloadAt ?? null,
    downloads: member.downloads ?? [],
  };
}
