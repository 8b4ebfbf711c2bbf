import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Vote } from '../../../shared/schemas/transfers';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { Db } from '../../lib/db/service';
import { LruCache } from '../../lib/lru-cache';

export interface Counts {
  likes: number;
  dislikes: number;
}

/** A package's counts by file (files nobody voted on are absent: zero), and how many vote changes made them. */
export interface Tally {
  counts: ReadonlyMap<string, Counts>;
  changes: number;
}

/** The attribute holding one file's count of one vote in the tally item. */
export const countAttribute = (vote: Vote, fileId: string) => `${vote}_${fileId}`;

/** The tally item's count of the vote changes it holds; the transfer item keeps the same count (`voteChanges`). */
const CHANGES_ATTRIBUTE = 'changes';

const NO_VOTES: Tally = { counts: new Map(), changes: 0 };

/**
 * Tallies as a warm function last read them. A transfer sent since votes were counted carries
 * `voteChanges`, moved by every vote in the vote's own transaction, and the package read has the
 * transfer anyway: a kept tally holding as many changes is current and is not read again, so a
 * package is read whole once per vote, not once per viewer, and shows every vote at once.
 */
const recentTallies = new LruCache<Tally & { readAt: number }>(200);

/** How long a tally of a transfer sent before `voteChanges` existed is kept, as nothing says when it changed. */
export const UNVERSIONED_TALLY_MAX_AGE_MS = 2_000;

export async function readCurrentTally(
  db: Db,
  transfer: Pick<TransferItem, 'transferId' | 'voteChanges'>,
  now: number = Date.now(),
): Promise<Tally> {
  const { transferId, voteChanges } = transfer;
  if (voteChanges === 0) return NO_VOTES;
  const recent = recentTallies.get(transferId);
  if (recent) {
    const current =
      voteChanges === undefined ? now - recent.readAt < UNVERSIONED_TALLY_MAX_AGE_MS : recent.changes >= voteChanges;
    if (current) return recent;
  }
  return readTally(db, transferId, now);
}

/** The tally as stored now (after one's own vote, or for the sender's view), kept for the package reads that follow. */
export async function readTally(db: Db, transferId: string, now: number = Date.now()): Promise<Tally> {
  const { Key, TableName } = db.entities.transferTally
    .get({ transferId })
    .params<{ Key: Record<string, string>; TableName: string }>();
  const { Item } = await db.client.send(new GetCommand({ TableName, Key }));
  const counts = new Map<string, Counts>();
  for (const [name, value] of Object.entries(Item ?? {})) {
    const match = /^(like|dislike)_(.+)$/.exec(name);
    if (!match || typeof value !== 'number') continue;
    const fileId = match[2] as string;
    const fileCounts = counts.get(fileId) ?? { likes: 0, dislikes: 0 };
    if (match[1] === 'like') fileCounts.likes = Math.max(0, value);
    else fileCounts.dislikes = Math.max(0, value);
    counts.set(fileId, fileCounts);
  }
  const changes = Item?.[CHANGES_ATTRIBUTE];
  // The very object kept is the one answered, so what is derived from a tally (a package's
  // serialised files) is kept by its identity.
  const tally = { counts, changes: typeof changes === 'number' ? changes : 0, readAt: now };
  // Two reads in flight may finish out of order: never replace a tally with an older one.
  const kept = recentTallies.get(transferId);
  if (!kept || kept.changes <= tally.changes) recentTallies.set(transferId, tally);
  return tally;
}

/**
 * The transaction items of one vote change: the file's counts and the tally's count of changes
 * move together, and so does the transfer's `voteChanges`, which tells package reads that their
 * kept tally is behind.
 */
export function tallyUpdates(db: Db, transferId: string, fileId: string, delta: Counts) {
  const tally = db.entities.transferTally.get({ transferId }).params<{ Key: Record<string, string>; TableName: string }>();
  const transfer = db.entities.transfer.get({ transferId }).params<{ Key: Record<string, string>; TableName: string }>();
  return [
    {
      Update: {
        TableName: tally.TableName,
        Key: tally.Key,
        UpdateExpression: 'ADD #likes :likes, #dislikes :dislikes, #changes :one',
        ExpressionAttributeNames: {
          '#likes': countAttribute('like', fileId),
          '#dislikes': countAttribute('dislike', fileId),
          '#changes': CHANGES_ATTRIBUTE,
        },
        ExpressionAttributeValues: { ':likes': delta.likes, ':dislikes': delta.dislikes, ':one': 1 },
        // The tally is made with the send: a vote on a deleted transfer's package fails here.
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Update: {
        TableName: transfer.TableName,
        Key: transfer.Key,
        UpdateExpression: 'ADD #voteChanges :one',
        ExpressionAttributeNames: { '#voteChanges': 'voteChanges' },
        ExpressionAttributeValues: { ':one': 1 },
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  ];
}
