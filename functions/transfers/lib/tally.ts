import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Vote } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import { LruCache } from '../../lib/lru-cache';

export interface Counts {
  likes: number;
  dislikes: number;
}

/** The attribute holding one file's count of one vote in the tally item. */
export const countAttribute = (vote: Vote, fileId: string) => `${vote}_${fileId}`;

/**
 * Counts as a package page shows them: read at most every TALLY_MAX_AGE_MS per package by a
 * warm function, so a popular package is not re-read for every viewer. Another recipient's vote
 * shows up that much later; one's own vote is answered from a fresh read (readTally) and kept.
 */
export const TALLY_MAX_AGE_MS = 2_000;
const recentTallies = new LruCache<{ tally: Map<string, Counts>; readAt: number }>(200);

export async function readRecentTally(db: Db, transferId: string, now: number = Date.now()): Promise<Map<string, Counts>> {
  const recent = recentTallies.get(transferId);
  if (recent && now - recent.readAt < TALLY_MAX_AGE_MS) return recent.tally;
  return readTally(db, transferId, now);
}

/** Every file's counts, from the one tally item; files nobody voted on are absent (zero). */
export async function readTally(db: Db, transferId: string, now: number = Date.now()): Promise<Map<string, Counts>> {
  const { Key, TableName } = db.entities.transferTally
    .get({ transferId })
    .params<{ Key: Record<string, string>; TableName: string }>();
  const { Item } = await db.client.send(new GetCommand({ TableName, Key }));
  const tally = new Map<string, Counts>();
  for (const [name, value] of Object.entries(Item ?? {})) {
    const match = /^(like|dislike)_(.+)$/.exec(name);
    if (!match || typeof value !== 'number') continue;
    const fileId = match[2] as string;
    const counts = tally.get(fileId) ?? { likes: 0, dislikes: 0 };
    if (match[1] === 'like') counts.likes = Math.max(0, value);
    else counts.dislikes = Math.max(0, value);
    tally.set(fileId, counts);
  }
  recentTallies.set(transferId, { tally, readAt: now });
  return tally;
}

/** The transaction item that moves one file's counts by a vote's change. */
export function tallyUpdate(db: Db, transferId: string, fileId: string, delta: Counts) {
  const { Key, TableName } = db.entities.transferTally
    .get({ transferId })
    .params<{ Key: Record<string, string>; TableName: string }>();
  return {
    Update: {
      TableName,
      Key,
      UpdateExpression: 'ADD #likes :likes, #dislikes :dislikes',
      ExpressionAttributeNames: { '#likes': countAttribute('like', fileId), '#dislikes': countAttribute('dislike', fileId) },
      ExpressionAttributeValues: { ':likes': delta.likes, ':dislikes': delta.dislikes },
      // The tally is made with the send: a vote on a deleted transfer's package fails here.
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}
