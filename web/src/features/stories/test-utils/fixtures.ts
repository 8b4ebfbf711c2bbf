import type { Story } from '../api/story-keys';

/** Another person, who shares the stories in the tests. */
export const ana = { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null };

/** A story as the API answers it, shared by Ana, read but not liked by the viewer. */
export const makeStory = (id: string, overrides: Partial<Story> = {}): Story => ({
  id,
  url: `https://blog.example.com/${id}`,
  canonicalUrl: `https://blog.example.com/${id}`,
  title: `Story ${id}`,
  description: null,
  imageUrl: null,
  siteName: 'Ship Notes',
  author: null,
  publishedAt: null,
  source: 'page',
  fetchProblem: null,
  sharer: ana,
  claimedAuthor: null,
  review: { state: 'none', submittedAt: null, decidedAt: null },
  likeCount: 3,
  commentCount: 0,
  createdAt: '2026-11-24T10:00:00.000Z',
  currentUserRelation: { didRedirect: true, isSharer: false, didUpvote: false },
  ...overrides,
});
