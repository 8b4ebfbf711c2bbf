import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { storyInTable } from '../support/stories';

const suite = apiSuite();

type Toggle = 'on' | 'off';
const claim = (id: string, status: string, as: SignedInUser) =>
  suite.api.call(routes.claimStoryAuthor, { params: { id, status: status as Toggle }, as });
const submit = (id: string, status: string, as: SignedInUser) =>
  suite.api.call(routes.submitStoryForReview, { params: { id, status: status as Toggle }, as });
const decide = (id: string, decision: string, as: SignedInUser) =>
  suite.api.call(routes.decideStoryReview, { params: { id, decision: decision as 'accept' }, as });
const unseenOf = async (as: SignedInUser) => {
  const answer = await suite.api.call(routes.listUnseenNotifications, { as });
  expectOk(answer);
  return answer.body.items;
};

describe('author claims', () => {
  let sharer: SignedInUser;
  let writer: SignedInUser;
  let impostor: SignedInUser;
  let storyId: string;

  beforeAll(async () => {
    [sharer, writer, impostor] = await Promise.all([
      suite.api.signIn('sharer'),
      suite.api.signIn('writer'),
      suite.api.signIn('impostor'),
    ]);
    storyId = await storyInTable(sharer, 'What I learned');
  });

  it("shows the claimant's profile as the author, and tells the sharer once", async () => {
    // Act
    const claimed = await claim(storyId, 'on', writer);
    const again = await claim(storyId, 'on', writer);
    const seenByAnyone = await suite.api.call(routes.getStory, { params: { id: storyId } });

    // Assess
    expectOk(claimed);
    expect(claimed.body.story.claimedAuthor).toEqual({
      userId: writer.userId,
      username: writer.username,
      name: expect.any(String),
      imageUrl: null,
    });
    expectOk(again);
    expectOk(seenByAnyone);
    expect(seenByAnyone.body.story.claimedAuthor?.userId).toBe(writer.userId);
    const notices = await unseenOf(sharer);
    expect(notices.filter((notice) => notice.kind === 'story-author-claimed')).toEqual([
      expect.objectContaining({ object: { type: 'story', id: storyId, title: 'What I learned', detail: null }, actorCount: 1 }),
    ]);
  });

  it("refuses a second claimant while a claim stands, and withdrawing someone else's claim", async () => {
    // Act
    const second = await claim(storyId, 'on', impostor);
    const withdrawOthers = await claim(storyId, 'off', impostor);

    // Assess
    expectError(second, 409, 'CONFLICT');
    expect(second.body.message).toMatch(/Someone else has already said they wrote this story/);
    expectError(withdrawOthers, 403, 'FORBIDDEN');
  });

  it('lets the claimant withdraw, after which someone else may claim', async () => {
    // Act
    const withdrawn = await claim(storyId, 'off', writer);
    const withdrawnAgain = await claim(storyId, 'off', writer);
    const next = await claim(storyId, 'on', impostor);

    // Assess
    expectOk(withdrawn);
    expect(withdrawn.body.story.claimedAuthor).toBeNull();
    expectOk(withdrawnAgain);
    expectOk(next);
    expect(next.body.story.claimedAuthor?.userId).toBe(impostor.userId);
  });

  it('answers 404 for an unknown story, 400 for an undefined status and 401 without a session', async () => {
    // Act
    const unknown = await claim('zzzzzzzz', 'on', writer);
    const badStatus = await claim(storyId, 'yes', writer);
    const anonymous = await suite.api.call(routes.claimStoryAuthor, { params: { id: storyId, status: 'on' } });

    // Assess
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(badStatus, 400);
    expectError(anonymous, 401);
  });
});

describe('editorial review', () => {
  let sharer: SignedInUser;
  let reader: SignedInUser;
  let editor: SignedInUser;

  beforeAll(async () => {
    [sharer, reader, editor] = await Promise.all([
      suite.api.signIn('sharer'),
      suite.api.signIn('reader'),
      suite.api.signIn('editor', { superuser: true }),
    ]);
  });

  const queueIds = async () => {
    const queue = await suite.api.call(routes.listReviewQueue, { as: editor });
    expectOk(queue);
    return queue.body.items.map((story) => story.id);
  };

  it('lets only the sharer submit, and keeps the queue in submission order', async () => {
    // Prepare
    const first = await storyInTable(sharer, 'First');
    const second = await storyInTable(sharer, 'Second');

    // Act
    const byReader = await submit(first, 'on', reader);
    const submittedFirst = await submit(first, 'on', sharer);
    const submittedSecond = await submit(second, 'on', sharer);
    const repeated = await submit(first, 'on', sharer);

    // Assess
    expectError(byReader, 403, 'FORBIDDEN');
    expectOk(submittedFirst);
    expect(submittedFirst.body.story.review).toMatchObject({ state: 'submitted', submittedAt: expect.any(String) });
    expectOk(submittedSecond);
    expectOk(repeated);
    const ids = await queueIds();
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(ids.filter((id) => id === first)).toHaveLength(1);
  });

  it('shows the review state to the sharer and superusers, and to others only once accepted', async () => {
    // Prepare
    const storyId = await storyInTable(sharer, 'Pending');
    expectOk(await submit(storyId, 'on', sharer));

    // Act
    const toReader = await suite.api.call(routes.getStory, { params: { id: storyId }, as: reader });
    const toEditor = await suite.api.call(routes.getStory, { params: { id: storyId }, as: editor });

    // Assess
    expectOk(toReader);
    expect(toReader.body.story.review).toEqual({ state: 'none', submittedAt: null, decidedAt: null });
    expectOk(toEditor);
    expect(toEditor.body.story.review.state).toBe('submitted');
  });

  it('takes a withdrawn story out of the queue', async () => {
    // Prepare
    const storyId = await storyInTable(sharer, 'Changed my mind');
    expectOk(await submit(storyId, 'on', sharer));

    // Act
    const withdrawn = await submit(storyId, 'off', sharer);

    // Assess
    expectOk(withdrawn);
    expect(withdrawn.body.story.review.state).toBe('none');
    expect(await queueIds()).not.toContain(storyId);
  });

  it('accepts a story: out of the queue, public, and its sharer told', async () => {
    // Prepare
    const storyId = await storyInTable(sharer, 'Worth a read');
    expectOk(await submit(storyId, 'on', sharer));

    // Act
    const accepted = await decide(storyId, 'accept', editor);
    const twice = await decide(storyId, 'reject', editor);
    const resubmitted = await submit(storyId, 'off', sharer);
    const toReader = await suite.api.call(routes.getStory, { params: { id: storyId }, as: reader });

    // Assess
    expectOk(accepted);
    expect(accepted.body.story.review.state).toBe('accepted');
    expectError(twice, 409, 'CONFLICT');
    expectError(resubmitted, 409, 'CONFLICT');
    expectOk(toReader);
    expect(toReader.body.story.review).toMatchObject({ state: 'accepted', decidedAt: expect.any(String) });
    expect(await queueIds()).not.toContain(storyId);
    const notices = await unseenOf(sharer);
    expect(notices.find((notice) => notice.kind === 'story-review-accepted')?.object.id).toBe(storyId);
  });

  it('rejects a story without telling anyone, and refuses decisions from non-superusers', async () => {
    // Prepare
    const storyId = await storyInTable(sharer, 'Not for us');
    expectOk(await submit(storyId, 'on', sharer));

    // Act
    const byReader = await decide(storyId, 'accept', reader);
    const queueByReader = await suite.api.call(routes.listReviewQueue, { as: reader });
    const rejected = await decide(storyId, 'reject', editor);
    const badDecision = await decide(storyId, 'maybe', editor);

    // Assess
    expectError(byReader, 403);
    expectError(queueByReader, 403);
    expectOk(rejected);
    expect(rejected.body.story.review.state).toBe('rejected');
    expectError(badDecision, 400);
    expect(await queueIds()).not.toContain(storyId);
  });
});
