import type { Story } from '../../../shared/schemas/stories';
import type { StoryItem } from '../../lib/db/entities/story';
import type { UserItem } from '../../lib/db/entities/user';

/** A story as the API answers it, for a caller (or nobody). */
export function toStory(
  item: StoryItem,
  sharer: UserItem | null,
  relation: { viewerId: string | undefined; didRedirect: boolean; didUpvote: boolean },
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
    fetchProblem: item.fetchProblem ?? null,
    sharer: sharer
      ? { userId: sharer.userId, username: sharer.username, name: sharer.name ?? '', imageUrl: sharer.imageUrl ?? null }
      : null,
    likeCount: item.likeCount,
    createdAt: item.createdAt,
    currentUserRelation: {
      didRedirect: relation.didRedirect,
      isSharer: relation.viewerId !== undefined && relation.viewerId === item.sharerId,
      didUpvote: relation.didUpvote,
    },
  };
}
