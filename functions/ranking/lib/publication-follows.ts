import type { PublicationFollowItem } from '../../lib/db/entities/publication-follow';
import { WATCH_SHARDS } from '../../lib/db/entities/publication-watch';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { Conflict, NotFound } from '../../lib/errors';
import { bucketOf } from './domain/shard';

/** Publications one person may follow: far above what a reader keeps up with, and a bounded digest. */
export const MAX_FOLLOWED_PUBLICATIONS = 500;

export interface PublicationFollowState {
  slug: string;
  following: boolean;
  /** People following the publication. */
  followerCount: number;
}

/** Everything `userId` follows, newest first: one Query of their partition. */
export async function listPublicationFollows(db: Db, options: { userId: string }): Promise<PublicationFollowItem[]> {
  const { data } = await db.entities.publicationFollow.query.byUser({ userId: options.userId }).go({ pages: 'all' });
  return data.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
}

/** The people following `slug`, for the job's news and the digest. */
export async function listPublicationFollowers(db: Db, options: { slug: string }): Promise<string[]> {
  const { data } = await db.entities.publicationFollow.query
    .bySlug({ slug: options.slug })
    .go({ pages: 'all', attributes: ['userId'] });
  return data.map(({ userId }) => userId);
}

export async function publicationFollowState(db: Db, options: { userId: string; slug: string }): Promise<PublicationFollowState> {
  const [{ data: follow }, { data: watch }] = await Promise.all([
    db.entities.publicationFollow.get(options).go({ consistent: true }),
    db.entities.publicationWatch.get({ slug: options.slug }).go({ consistent: true }),
  ]);
  return { slug: options.slug, following: Boolean(follow), followerCount: Math.max(0, watch?.followerCount ?? 0) };
}

/**
 * Follows (`on`) or stops following (`off`) a publication. The follow item and the publication's
 * watch (its follower count, and the job's state) change in one transaction conditioned on the
 * follow's existence, so the count stays exact under concurrent calls and a repeat changes nothing.
 */
export async function setPublicationFollow(
  db: Db,
  options: { userId: string; slug: string; status: 'on' | 'off'; now: Date },
): Promise<PublicationFollowState> {
  const { userId, slug, status, now } = options;
  if (status === 'on') {
    const [{ data: publication }, follows] = await Promise.all([
      db.entities.publication.get({ slug }).go({ attributes: ['slug'] }),
      listPublicationFollows(db, { userId }),
    ]);
    if (!publication) throw new NotFound(`There is no publication with the slug '${slug}'.`);
    if (follows.length >= MAX_FOLLOWED_PUBLICATIONS && !follows.some((follow) => follow.slug === slug)) {
      throw new Conflict(
        `You follow ${MAX_FOLLOWED_PUBLICATIONS} publications, the most we allow. Unfollow one to follow another.`,
      );
    }
  }
  const at = now.toISOString();
  const result = await db.transaction
    .write(({ publicationFollow, publicationWatch }) => [
      status === 'on'
        ? publicationFollow.create({ userId, slug, createdAt: at }).commit()
        : publicationFollow
            .delete({ userId, slug })
            .where(({ createdAt }, { exists }) => exists(createdAt))
            .commit(),
      publicationWatch
        .upsert({ slug, watchShard: bucketOf(slug, WATCH_SHARDS), updatedAt: at })
        .add({ followerCount: status === 'on' ? 1 : -1 })
        .commit(),
    ])
    .go();
  // Already following (or already not): nothing changed.
  if (result.canceled && !failedConditions(result).includes(0)) throw new Error('Could not change the follow', { cause: result });
  return publicationFollowState(db, { userId, slug });
}
