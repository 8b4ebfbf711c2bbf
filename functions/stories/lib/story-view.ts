import type { Story } from '../../../shared/schemas/stories';
import type { StoryItem } from '../../lib/db/entities/story';
import type { UserItem } from '../../lib/db/entities/user';
import { shownPageProblem } from './page-problem';

/** A story as what a notification is about: its title is kept with the notification. */
export function notifiedStory(item: Pick<StoryItem, 'storyId' | 'title'>): {
  type: 'story';
  id: string;
  title: string | undefined;
} {
  return { type: 'story', id: item.storyId, title: item.title };
}

/** Who is looking at a story: a signed-in user, or nobody. */
export interface Viewer {
  userId: string;
  isSuperUser: boolean;
}

type StoryPerson = NonNullable<Story['sharer']>;

export function toPerson(user: UserItem | null | undefined): StoryPerson | null {
  return user ? { userId: user.userId, username: user.username, name: user.name ?? '', imageUrl: user.imageUrl ?? null } : null;
}

/**
 * The review as this viewer may see it: the sharer and superusers see where it stands; anyone
 * else only learns that the platform picked it.
 */
function reviewFor(item: StoryItem, viewer: Viewer | undefined): Story['review'] {
  const state = item.reviewState ?? 'none';
  const full = viewer !== undefined && (viewer.isSuperUser || viewer.userId === item.sharerId);
  if (full || state === 'accepted') {
    return {
      state,
      submittedAt: full ? (item.reviewSubmittedAt ?? null) : null,
      decidedAt: item.reviewDecidedAt ?? null,
    };
  }
  return { state: 'none', submittedAt: null, decidedAt: null };
}

/** A story as the API answers it, for a viewer (or nobody). */
export function toStory(
  item: StoryItem,
  people: { sharer: UserItem | null; claimedAuthor: UserItem | null },
  viewer: Viewer | undefined,
  relation: { didRedirect: boolean; didUpvote: boolean },
): Story {
  return {
    id: item.storyId,
    url: item.url,
    canonicalUrl: item.canonicalUrl,
    title: item.title ?? null,
    description: item.description ?? null,
    imageUrl: item.imageUrl ?? null,
    siteName: item.siteName ?? null,
    author: item.author ?? null,
    publishedAt: item.publishedAt ?? null,
    source: item.source,
    fetchProblem: shownPageProblem(item.fetchProblem),
    sharer: toPerson(people.sharer),
    claimedAuthor: toPerson(people.claimedAuthor),
    review: reviewFor(item, viewer),
    likeCount: item.likeCount,
    commentCount: item.commentCount ?? 0,
    createdAt: item.createdAt,
    currentUserRelation: {
      didRedirect: relation.didRedirect,
      isSharer: viewer !== undefined && viewer.userId === item.sharerId,
      didUpvote: relation.didUpvote,
    },
  };
}
