import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/** How much the server learned about the page when the story was shared. */
export const STORY_SOURCES = ['page', 'url-only'] as const;

/** Where a story is in the platform's editorial review; 'none' until its sharer submits it. */
export const REVIEW_STATES = ['none', 'submitted', 'accepted', 'rejected'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/**
 * A story shared by a user: a link to a page published elsewhere, with the card data read from
 * it. Feeds read it by time (all stories, newest first) and by sharer.
 */
export const createStoryEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'story', version: '1' },
      attributes: {
        storyId: { type: 'string', required: true },
        /** The url as shared, normalised (sharing rules). */
        url: { type: 'string', required: true },
        /** The url duplicates are found by: the page's canonical link when it had one. */
        canonicalUrl: { type: 'string', required: true },
        title: { type: 'string' },
        description: { type: 'string' },
        imageUrl: { type: 'string' },
        siteName: { type: 'string' },
        author: { type: 'string' },
        publishedAt: { type: 'string' },
        source: { type: STORY_SOURCES, required: true },
        /** Why the page could not be read, for a url-only story. */
        fetchProblem: { type: 'string' },
        sharerId: userIdAttribute,
        /**
         * The likes counted on the story itself: all of them, unless `likeShards` is set, after
         * which new likes are counted in its shards (story-like-shard.ts) and the count is this plus theirs.
         */
        likeCount: { type: 'number', required: true, default: 0 },
        /** Set once the story's likes collided: how many shards they are counted in from then on. */
        likeShards: { type: 'number' },
        /**
         * Comments shown (not deleted or removed), moved in the same transaction as the comment's
         * write. Absent on stories shared before comments existed: read as 0.
         */
        commentCount: { type: 'number' },
        /** The user who says they wrote the story; one at a time, until they withdraw. */
        authorClaimUserId: { type: 'string' },
        authorClaimedAt: { type: 'string' },
        /** Absent on stories shared before reviews existed: read as 'none'. */
        reviewState: { type: REVIEW_STATES, default: 'none' },
        reviewSubmittedAt: { type: 'string' },
        reviewDecidedAt: { type: 'string' },
        reviewDecidedBy: { type: 'string' },
        createdAt: { type: 'string', required: true },
        /** One partition for the newest-first feed. */
        feed: { type: 'string', required: true, default: 'all', readOnly: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['storyId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        newest: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['feed'] },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'storyId'], casing: 'none' },
        },
        bySharer: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['sharerId'] },
          sk: { field: 'gsi2sk', composite: ['createdAt', 'storyId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type StoryItem = EntityItem<ReturnType<typeof createStoryEntity>>;

/**
 * Claims a canonical url for the story first shared under it. A conditional put lets one story
 * win when two people share the same page at once; the claim lapses after the duplicate
 * window, so the page can be shared again later.
 */
export const createStoryUrlEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storyUrl', version: '1' },
      attributes: {
        /** sha256 of the canonical url: keys stay short whatever the url's length. */
        urlHash: { type: 'string', required: true },
        storyId: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        /** Epoch seconds: when a second share of this url makes a new story. Also the item's TTL. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byUrl: {
          pk: { field: 'pk', composite: ['urlHash'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

/** The editorial review queue: the partition every storyReview item is in. */
export const EDITORIAL_QUEUE = 'editorial';

/**
 * A story waiting for the platform's editorial review, in one partition ordered by submission
 * time: the superusers' queue is one Query, oldest first. Written and removed in the same
 * transaction as the story's review state.
 */
export const createStoryReviewEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storyReview', version: '1' },
      attributes: {
        queue: { type: [EDITORIAL_QUEUE] as const, required: true, readOnly: true },
        submittedAt: { type: 'string', required: true },
        storyId: { type: 'string', required: true },
      },
      indexes: {
        byQueue: {
          pk: { field: 'pk', composite: ['queue'] },
          sk: { field: 'sk', composite: ['submittedAt', 'storyId'], casing: 'none' },
        },
      },
    },
    config,
  );
