import {
  followingIdsQuerySchema,
  followingIdsSchema,
  followParamsSchema,
  followStateSchema,
  likeParamsSchema,
  reviewDecisionParamsSchema,
  reviewQueueQuerySchema,
  storyToggleParamsSchema,
  storyPageSchema,
  feedQuerySchema,
  userFeedParamsSchema,
  sharedStorySchema,
  shareStoryBodySchema,
  storyAnswerSchema,
  storyIdParamsSchema,
  urlCheckQuerySchema,
  urlCheckResultSchema,
  siteFeedQuerySchema,
  siteFeedSchema,
  siteParamsSchema,
} from '../schemas/stories';
import {
  addCommentBodySchema,
  commentAnswerSchema,
  commentPageSchema,
  commentParamsSchema,
  commentsQuerySchema,
  deletedCommentAnswerSchema,
  editCommentBodySchema,
  reportCommentBodySchema,
} from '../schemas/comments';
import * as z from '../zod';
import { defineRoute, redirectResponse } from './define-route';

/** The answer depends only on the url and the deployment's own hosts. */
const URL_CHECK_CACHE_SECONDS = 300;

export const checkStoryUrl = defineRoute({
  method: 'GET',
  path: '/api/i/stories/url/check',
  access: 'public',
  handler: 'stories/check-story-url',
  summary:
    'Checks a url against the sharing rules without fetching it: 200 with the normalised url, or 400 INVALID_URL with the alert to show.',
  query: urlCheckQuerySchema,
  response: urlCheckResultSchema,
  cacheSeconds: URL_CHECK_CACHE_SECONDS,
});

export const shareStoryByUrl = defineRoute({
  method: 'POST',
  path: '/api/i/stories/story/by/url',
  access: 'user',
  handler: 'stories/share-story-by-url',
  summary:
    'Shares a story: the url is checked like url/check (same 400), then the page is fetched and read. 201 with the new story; 200 with the existing one (duplicate: true) when the same page was shared in the last 30 days. A page that cannot be read still makes a story from the url.',
  body: shareStoryBodySchema,
  response: sharedStorySchema,
});

export const getStory = defineRoute({
  method: 'GET',
  path: '/api/i/stories/story/{id}/v',
  access: 'public',
  handler: 'stories/get-story',
  summary: 'A story with its sharer and, for a signed-in caller, their relation to it (opened, shared, liked).',
  params: storyIdParamsSchema,
  response: storyAnswerSchema,
});

export const openStory = defineRoute({
  method: 'GET',
  path: '/api/i/stories/story/{id}/go',
  access: 'public',
  handler: 'stories/open-story',
  summary:
    "Where a story's link points: records that a signed-in reader opened it (which lets them like it), then redirects (302) to the story's page.",
  params: storyIdParamsSchema,
  response: redirectResponse,
  // A link click cannot send the app-id header, and recording an opened link changes nothing anyone else sees.
  stateChanging: false,
  capabilities: { table: 'read-write' },
});

export const likeStory = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/story/{id}/like/{status}',
  access: 'user',
  handler: 'stories/like-story',
  summary:
    "Likes (status 'on') or unlikes ('off') a story; repeating either changes nothing. 403 before the caller opened the story's link, on their own story, or when its sharer blocked them.",
  params: likeParamsSchema,
  response: storyAnswerSchema,
  // Tells the person by email too, when they asked for notification emails.
  capabilities: { email: true, realtime: true },
});

export const followUser = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/user/{userId}/follow/{status}',
  access: 'user',
  handler: 'stories/follow-user',
  summary:
    "Follows (status 'on') or stops following ('off') a user; repeating either changes nothing. Answers the follow state and the user's follower and following counts. 400 for oneself, 403 when the user blocked the caller, 404 for an unknown user.",
  params: followParamsSchema,
  response: followStateSchema,
  // Tells the person by email too, when they asked for notification emails.
  capabilities: { email: true, realtime: true },
});

export const filterFollowingIds = defineRoute({
  method: 'GET',
  path: '/api/i/stories/following/ids',
  access: 'public',
  handler: 'stories/filter-following-ids',
  summary:
    'Which of the users in `userIds` (a JSON array, at most 100) the caller follows; an empty list when nobody is signed in or no ids are given.',
  query: followingIdsQuerySchema,
  response: followingIdsSchema,
});

export const claimStoryAuthor = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/story/{id}/author/{status}',
  access: 'user',
  handler: 'stories/claim-story-author',
  summary:
    "Says the caller wrote the story (status 'on') or withdraws that ('off'); the story then shows their profile as its author, and its sharer is told. One claim at a time: 409 while someone else's stands, 403 withdrawing someone else's.",
  params: storyToggleParamsSchema,
  response: storyAnswerSchema,
  // Tells the person by email too, when they asked for notification emails.
  capabilities: { email: true, realtime: true },
});

export const submitStoryForReview = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/story/{id}/review/{status}',
  access: 'user',
  handler: 'stories/submit-story-for-review',
  summary:
    "The sharer submits their story for the platform's editorial review (status 'on') or withdraws it while it waits ('off'). 403 for anyone but the sharer; 409 once it has been decided.",
  params: storyToggleParamsSchema,
  response: storyAnswerSchema,
});

export const listReviewQueue = defineRoute({
  method: 'GET',
  path: '/api/i/stories/review/queue',
  access: 'superuser',
  handler: 'stories/list-review-queue',
  summary: 'Superusers: the stories waiting for editorial review, oldest submission first, 20 a page.',
  query: reviewQueueQuerySchema,
  response: storyPageSchema,
});

export const decideStoryReview = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/review/story/{id}/{decision}',
  access: 'superuser',
  handler: 'stories/decide-story-review',
  summary:
    'Superusers: accepts or rejects a story waiting for review; an acceptance tells its sharer. 409 when it is not waiting (already decided, or withdrawn).',
  params: reviewDecisionParamsSchema,
  response: storyAnswerSchema,
  // Tells the person by email too, when they asked for notification emails.
  capabilities: { email: true, realtime: true },
});

export const readNewFeed = defineRoute({
  method: 'GET',
  path: '/api/i/stories/feed/new',
  access: 'public',
  handler: 'stories/read-new-feed',
  summary: "The newest stories first, 20 a page; `cursor` is the previous page's nextCursor.",
  query: feedQuerySchema,
  response: storyPageSchema,
});

export const readHotFeed = defineRoute({
  method: 'GET',
  path: '/api/i/stories/feed/hot',
  access: 'public',
  handler: 'stories/read-hot-feed',
  summary:
    "The last week's stories, hottest first: likes weighed against age as Hacker News does, recomputed every 10 minutes. 20 a page.",
  query: feedQuerySchema,
  response: storyPageSchema,
});

export const readFollowingFeed = defineRoute({
  method: 'GET',
  path: '/api/i/stories/feed/following',
  access: 'user',
  handler: 'stories/read-following-feed',
  summary: 'Stories shared in the last 30 days by the people the caller follows, newest first, 20 a page.',
  query: feedQuerySchema,
  response: storyPageSchema,
});

export const readUserFeed = defineRoute({
  method: 'GET',
  path: '/api/i/stories/user/{userId}/stories',
  access: 'public',
  handler: 'stories/read-user-feed',
  summary: 'The stories a user shared, newest first, 20 a page. 404 for an unknown user.',
  params: userFeedParamsSchema,
  query: feedQuerySchema,
  response: storyPageSchema,
});

export const listStoryComments = defineRoute({
  method: 'GET',
  path: '/api/i/stories/story/{id}/comments',
  access: 'public',
  handler: 'stories/list-story-comments',
  summary:
    "A story's comments, 50 a page, in reading order: each comment followed by its replies, oldest first at each level (`depth` and `parentId` place it). Each has its Markdown `body` and its `html` from the shared renderer (links rel=\"nofollow ugc noopener\", nothing else but text). A comment deleted with replies under it shows as 'deleted' (\"[deleted]\", no author or body), one a superuser removed as 'removed'. A signed-in caller does not see the comments of people they blocked (shown as 'hidden' while replies hang under them). Also the story's comment count. 404 for an unknown story.",
  params: storyIdParamsSchema,
  query: commentsQuerySchema,
  response: commentPageSchema,
});

export const addStoryComment = defineRoute({
  method: 'POST',
  path: '/api/i/stories/story/{id}/comments',
  access: 'user',
  handler: 'stories/add-story-comment',
  summary:
    "Comments on a story, or replies to one of its comments (`parentId`): Markdown, 1 to 10,000 characters once trimmed. 201 with the comment and the story's new comment count. Tells the story's sharer and the parent comment's author (bell, and mail by their email preferences), never the caller. 404 for an unknown story or parent; 410 when the parent was deleted or removed; 403 replying to someone who blocked the caller or whom the caller blocked, or deeper than 9 levels; 429 past 5 comments a minute or 200 a day, with Retry-After.",
  params: storyIdParamsSchema,
  body: addCommentBodySchema,
  response: commentAnswerSchema,
  // Tells the people concerned by email too, when they asked for notification emails.
  capabilities: { email: true, realtime: true },
});

export const editStoryComment = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/story/{id}/comment/{commentId}',
  access: 'user',
  handler: 'stories/edit-story-comment',
  summary:
    "Replaces the text of the caller's own comment, within 10 minutes of posting it (`editableUntil` says until when). 403 after that, and for someone else's comment; 404 for an unknown one; 410 once deleted or removed.",
  params: commentParamsSchema,
  body: editCommentBodySchema,
  response: commentAnswerSchema,
});

export const deleteStoryComment = defineRoute({
  method: 'DELETE',
  path: '/api/i/stories/story/{id}/comment/{commentId}',
  access: 'user',
  handler: 'stories/delete-story-comment',
  summary:
    "Deletes the caller's own comment, any time: it leaves a \"[deleted]\" placeholder while replies hang under it (the answer's comment), else it goes altogether (`comment` null). The story's comment count drops by one; deleting again changes nothing. 403 for someone else's comment, 404 for an unknown one, 410 for one a superuser removed.",
  params: commentParamsSchema,
  response: deletedCommentAnswerSchema,
});

export const reportStoryComment = defineRoute({
  method: 'POST',
  path: '/api/i/stories/story/{id}/comment/{commentId}/report',
  access: 'user',
  handler: 'stories/report-story-comment',
  summary:
    "Reports a comment to the moderators, as the account's report route does (one report per reporter and comment; a repeat updates it): the open reports list it as objectType 'comment' with objectId '{story id}.{comment id}'. 400 for one's own comment, 404 for an unknown one.",
  params: commentParamsSchema,
  body: reportCommentBodySchema,
  response: z.strictObject({ reported: z.literal(true), isNew: z.boolean() }),
});

export const removeStoryComment = defineRoute({
  method: 'PUT',
  path: '/api/i/stories/moderation/story/{id}/comment/{commentId}/removal',
  access: 'superuser',
  handler: 'stories/remove-story-comment',
  summary:
    "Superusers: removes a comment (from the moderation page; a report's objectId is '{story id}.{comment id}'). It stays in its thread as 'removed', without author or text, leaves the story's comment count, and its open reports are resolved as actioned. Repeating it changes nothing. 404 for an unknown comment.",
  params: commentParamsSchema,
  response: commentAnswerSchema,
});

export const readSiteFeed = defineRoute({
  method: 'GET',
  path: '/api/i/stories/site/{host}',
  access: 'public',
  handler: 'stories/read-site-feed',
  summary:
    "Every story shared from one site (its host, www. or not, in any case), with their count: newest first (`sort=new`, the default), or hottest first (`sort=hot`: the hot feed's score over the site's 200 newest stories of the last 30 days). 20 a page; `cursor` is the previous page's nextCursor for the same sort. 400 for a host that is no site name, 404 for a site nobody shared a story from.",
  params: siteParamsSchema,
  query: siteFeedQuerySchema,
  response: siteFeedSchema,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allStoryRoutes = {
  checkStoryUrl,
  shareStoryByUrl,
  getStory,
  openStory,
  likeStory,
  followUser,
  filterFollowingIds,
  claimStoryAuthor,
  submitStoryForReview,
  listReviewQueue,
  decideStoryReview,
  readNewFeed,
  readHotFeed,
  readFollowingFeed,
  readUserFeed,
  listStoryComments,
  addStoryComment,
  editStoryComment,
  deleteStoryComment,
  reportStoryComment,
  removeStoryComment,
  readSiteFeed,
};
