import type * as z from '@shared/zod';
import type { commentPageSchema } from '@shared/schemas/comments';
import type { SiteSort, storyPageSchema } from '@shared/schemas/stories';

export type { SiteFeed, SiteSort, Story } from '@shared/schemas/stories';
export type { Comment } from '@shared/schemas/comments';
export type StoryPage = z.infer<typeof storyPageSchema>;
export type CommentPage = z.infer<typeof commentPageSchema>;

/** The feeds the stories page shows. */
export const FEEDS = ['hot', 'new', 'following'] as const;
export type Feed = (typeof FEEDS)[number];

/**
 * Query keys of the stories feature: every feed page lives under ['stories', 'feed'], and every
 * query under ['stories'] is a paged list of stories (updateCachedStory relies on that).
 */
export const storyKeys = {
  all: ['stories'] as const,
  feeds: ['stories', 'feed'] as const,
  feed: (feed: Feed, viewerId: string) => ['stories', 'feed', feed, viewerId] as const,
  userFeed: (userId: string, viewerId: string) => ['stories', 'feed', 'user', userId, viewerId] as const,
  /** A site's stories (its pages also carry the site's count). */
  siteFeed: (host: string, sort: SiteSort, viewerId: string) => ['stories', 'feed', 'site', host, sort, viewerId] as const,
  reviewQueue: ['stories', 'review-queue'] as const,
  /**
   * One story's page: the story and its comments, keyed by the viewer (their relation to it,
   * their own comments' edit window, whom they blocked). Under ['story'], not ['stories'],
   * which holds only lists of stories; the page renderer (functions/web-pages) writes the
   * visitor's copies under these keys.
   */
  story: (id: string, viewerId: string) => ['story', 'one', id, viewerId] as const,
  stories: (id: string) => ['story', 'one', id] as const,
  comments: (id: string, viewerId: string) => ['story', 'comments', id, viewerId] as const,
};
