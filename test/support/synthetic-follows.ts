import { WATCH_SHARDS } from '../../functions/lib/db/entities/publication-watch';
import { writeBatch } from '../../functions/lib/db/batches';
import type { Db } from '../../functions/lib/db/service';
import { bucketOf } from '../../functions/ranking/lib/domain/shard';

/** BatchWriteItem takes 25 items; ElectroDB splits a longer list into such calls. */
const ITEMS_PER_CALL = 25;

/** Accounts with these ids (each its own username), written straight to the table with BatchWriteItem. */
export async function writeSyntheticPeople(db: Db, userIds: readonly string[], at: string): Promise<void> {
  await writeBatch({
    items: userIds.map((userId) => ({ userId, username: userId, createdAt: at, lastLoginAt: at })),
    send: async (items) => db.entities.user.put(items).go(),
    keyOf: (key) => key.userId,
    what: 'synthetic people',
  });
}

/**
 * `count` people following `slug`, written straight to the table with BatchWriteItem (an account
 * and a follow each), and the publication's watch counting them, as follows through the API
 * would leave them: for tests and the bench, which need more followers than sign-ins can make.
 * Their ids are `${prefix}-0` and on; answers them. `calls` BatchWrites are kept in flight.
 */
export async function writeSyntheticFollowers(
  db: Db,
  options: { slug: string; count: number; prefix: string; now?: Date; calls?: number },
): Promise<string[]> {
  const at = (options.now ?? new Date()).toISOString();
  const userIds = Array.from({ length: options.count }, (_, index) => `${options.prefix}-${index}`);
  const chunks: string[][] = [];
  for (let start = 0; start < userIds.length; start += ITEMS_PER_CALL) chunks.push(userIds.slice(start, start + ITEMS_PER_CALL));
  const writeChunk = async (chunk: string[]) => {
    await writeSyntheticPeople(db, chunk, at);
    await writeBatch({
      items: chunk.map((userId) => ({ userId, slug: options.slug, createdAt: at })),
      send: async (items) => db.entities.publicationFollow.put(items).go(),
      keyOf: (key) => `${key.userId}/${key.slug}`,
      what: 'synthetic follows',
    });
  };
  const inFlight = options.calls ?? 8;
  for (let start = 0; start < chunks.length; start += inFlight) {
    await Promise.all(chunks.slice(start, start + inFlight).map(writeChunk));
  }
  await db.entities.publicationWatch
    .upsert({ slug: options.slug, watchShard: bucketOf(options.slug, WATCH_SHARDS), updatedAt: at })
    .add({ followerCount: options.count })
    .go();
  return userIds;
}
