import type { TransferSummary } from '../../../shared/schemas/transfers';
import { getBatch } from '../../lib/db/batches';
import { checkedCursor } from '../../lib/db/cursors';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { Db } from '../../lib/db/service';
import { summariesOf } from './transfer-views';
import { withoutLockedContents } from './package-password';

export const TRANSFER_PAGE_SIZE = 20;

export interface TransferPage {
  transfers: TransferSummary[];
  cursor: string | null;
}

/** A sender's transfers, newest first: one Query of gsi1. */
export async function listOwnTransfers(
  db: Db,
  options: { ownerId: string; cursor?: string | undefined; now: Date },
): Promise<TransferPage> {
  const query = () => db.entities.transfer.query.byOwner({ ownerId: options.ownerId });
  const cursor = checkedCursor(options.cursor, query(), 'gsi1pk');
  const page = await query().go({ order: 'desc', limit: TRANSFER_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  return { transfers: await summariesOf(db, page.data, options.now), cursor: page.cursor ?? null };
}

/** The sent transfers an address received, newest first; ones deleted since are left out. */
export async function listReceivedTransfers(
  db: Db,
  options: { email: string; cursor?: string | undefined; now: Date },
): Promise<TransferPage> {
  const query = () => db.entities.receivedTransfer.query.byRecipient({ email: options.email });
  const cursor = checkedCursor(options.cursor, query(), 'pk');
  const page = await query().go({ order: 'desc', limit: TRANSFER_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  const transfers = await getBatch<{ transferId: string }, TransferItem>({
    keys: page.data.map(({ transferId }) => ({ transferId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.transfer.get(keys).go();
      return { data, unprocessed: unprocessed.map((key) => ({ transferId: key.transferId })) };
    },
    what: 'received transfers',
  });
  const byId = new Map(transfers.map((transfer) => [transfer.transferId, transfer]));
  const ordered = page.data.flatMap(({ transferId }) => byId.get(transferId) ?? []);
  return { transfers: (await summariesOf(db, ordered, options.now)).map(withoutLockedContents), cursor: page.cursor ?? null };
}
