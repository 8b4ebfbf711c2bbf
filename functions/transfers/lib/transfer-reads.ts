import type { Vote } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import { transferFolder, type StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';

/** Every file of a transfer, in the order they were added (at most 1,000: a few pages). */
export async function listTransferFiles(db: Db, transferId: string): Promise<StoredFileItem[]> {
  const { data } = await db.entities.storedFile.query.byFolder({ folder: transferFolder(transferId) }).go({ pages: 'all' });
  return data;
}

/** Every recipient of a transfer, by address. */
export async function listMembers(db: Db, transferId: string): Promise<TransferMemberItem[]> {
  const { data } = await db.entities.transferMember.query.byTransfer({ transferId }).go({ pages: 'all' });
  return data.sort((a, b) => a.addedAt.localeCompare(b.addedAt));
}

/** A voter's votes on a transfer's files, by file id. */
export async function readVotes(db: Db, transferId: string, userId: string): Promise<Map<string, Vote>> {
  const { data } = await db.entities.transferVote.query.byVoter({ transferId, userId }).go({ pages: 'all' });
  return new Map(data.map((vote) => [vote.fileId, vote.vote]));
}
