import { EDITORIAL_QUEUE, type StoryItem } from '../../lib/db/entities/story';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { Conflict, Forbidden } from '../../lib/errors';
import { type NotificationWrites, prepareNotification } from '../../lib/notifications';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { requireStory } from './story-relations';
import { notifiedStory } from './story-view';

const CLAIMED_BY_SOMEONE_ELSE =
  'Someone else has already said they wrote this story. If that is not true, report the story and we will look into it.';

/**
 * The caller says they wrote the story (`on`) or withdraws that (`off`). One claim at a time:
 * the first stands until its claimant withdraws it. A claim tells the sharer, in the same
 * transaction. Repeating either changes nothing.
 */
export async function setAuthorClaim(
  db: Db,
  storyId: string,
  userId: string,
  status: 'on' | 'off',
  now: Date,
): Promise<NotificationWrites | null> {
  return retryContendedWrite({ what: 'changing this story' }, async () => {
    const story = await requireStory(db, storyId);
    const claimant = story.authorClaimUserId;
    if (status === 'off') {
      if (claimant === undefined) return null;
      if (claimant !== userId) throw new Forbidden('Only the person who claimed this story can withdraw the claim.');
      const result = await db.transaction
        .write(({ story: stories }) => [
          stories
            .patch({ storyId })
            .remove(['authorClaimUserId', 'authorClaimedAt'])
            .where((attributes, { eq }) => eq(attributes.authorClaimUserId, userId))
            .commit(),
        ])
        .go();
      if (!result.canceled) return null;
      return lostRace(result);
    }
    if (claimant === userId) return null;
    if (claimant !== undefined) throw new Conflict(CLAIMED_BY_SOMEONE_ELSE);
    const notification = await prepareNotification(db, {
      recipientId: story.sharerId,
      actorId: userId,
      kind: 'story-author-claimed',
      object: notifiedStory(story),
      at: now,
    });
    const result = await db.transaction
      .write((entities) => [
        entities.story
          .patch({ storyId })
          .set({ authorClaimUserId: userId, authorClaimedAt: now.toISOString() })
          .where((attributes, { notExists }) => notExists(attributes.authorClaimUserId))
          .commit(),
        ...(notification?.commits(entities) ?? []),
      ])
      .go();
    if (!result.canceled) return notification;
    // Claimed meanwhile (by the caller or someone else), or a race on the notification: read again.
    return lostRace(result);
  });
}

const ALREADY_REVIEWED = 'This story has already been reviewed.';

/**
 * The sharer submits their story for the platform's editorial review (`on`) or withdraws it
 * while it waits (`off`). The story's state and its place in the queue change in one
 * transaction. Repeating either changes nothing; a story already decided cannot be resubmitted.
 */
export async function setReviewSubmission(
  db: Db,
  storyId: string,
  userId: string,
  status: 'on' | 'off',
  now: Date,
): Promise<void> {
  return retryContendedWrite({ what: 'changing this story' }, async () => {
    const story = await requireStory(db, storyId);
    if (story.sharerId !== userId) throw new Forbidden('Only the person who shared a story can submit it for review.');
    const state = story.reviewState ?? 'none';
    if (state === 'accepted' || state === 'rejected') throw new Conflict(ALREADY_REVIEWED);
    if ((status === 'on') === (state === 'submitted')) return;
    const submittedAt = story.reviewSubmittedAt;
    const result = await db.transaction
      .write(({ story: stories, storyReview }) =>
        status === 'on'
          ? [
              stories
                .patch({ storyId })
                .set({ reviewState: 'submitted', reviewSubmittedAt: now.toISOString() })
                .where(
                  (attributes, { eq, notExists }) =>
                    `${notExists(attributes.reviewState)} OR ${eq(attributes.reviewState, 'none')}`,
                )
                .commit(),
              storyReview.create({ queue: EDITORIAL_QUEUE, submittedAt: now.toISOString(), storyId }).commit(),
            ]
          : [
              stories
                .patch({ storyId })
                .set({ reviewState: 'none' })
                .remove(['reviewSubmittedAt'])
                .where((attributes, { eq }) => eq(attributes.reviewState, 'submitted'))
                .commit(),
              storyReview.delete({ queue: EDITORIAL_QUEUE, submittedAt: submittedAt ?? '', storyId }).commit(),
            ],
      )
      .go();
    if (!result.canceled) return;
    // Changed meanwhile (another tab, a decision): read again and answer from what is there.
    return lostRace(result);
  });
}

/**
 * A superuser accepts or rejects a story waiting in the queue: its state, its removal from the
 * queue and, for an acceptance, the sharer's notification, in one transaction.
 */
export async function decideReview(
  db: Db,
  story: StoryItem,
  superUserId: string,
  decision: 'accept' | 'reject',
  now: Date,
): Promise<NotificationWrites | null> {
  if (story.reviewState !== 'submitted' || !story.reviewSubmittedAt) throw new Conflict('This story is not waiting for review.');
  const submittedAt = story.reviewSubmittedAt;
  const notification =
    decision === 'accept'
      ? await prepareNotification(db, {
          recipientId: story.sharerId,
          actorId: superUserId,
          kind: 'story-review-accepted',
          object: notifiedStory(story),
          at: now,
          byPlatform: true,
        })
      : null;
  const result = await db.transaction
    .write((entities) => [
      entities.story
        .patch({ storyId: story.storyId })
        .set({
          reviewState: decision === 'accept' ? 'accepted' : 'rejected',
          reviewDecidedAt: now.toISOString(),
          reviewDecidedBy: superUserId,
        })
        .where(
          (attributes, { eq }) =>
            `${eq(attributes.reviewState, 'submitted')} AND ${eq(attributes.reviewSubmittedAt, submittedAt)}`,
        )
        .commit(),
      entities.storyReview.delete({ queue: EDITORIAL_QUEUE, submittedAt, storyId: story.storyId }).commit(),
      ...(notification?.commits(entities) ?? []),
    ])
    .go();
  if (!result.canceled) return notification;
  if (failedConditions(result).includes(0))
    throw new Conflict('This story is no longer waiting for review: someone decided or it was withdrawn.');
  throw new Error('Could not record the review decision; try again');
}
