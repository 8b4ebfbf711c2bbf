import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import type { BodyOf } from '../../shared/routes/define-route';
import { commentReportId } from '../../shared/stories/comment-rules';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailTo } from '../support/mail';
import { storyInTable } from '../support/stories';

const suite = apiSuite();

const comment = (as: SignedInUser, storyId: string, body: BodyOf<typeof routes.addStoryComment>) =>
  suite.api.call(routes.addStoryComment, { params: { id: storyId }, body, as });
const comments = (storyId: string, as?: SignedInUser) =>
  suite.api.call(routes.listStoryComments, { params: { id: storyId }, ...(as ? { as } : {}) });
const unseen = async (as: SignedInUser) => {
  const answer = await suite.api.call(routes.listUnseenNotifications, { as });
  expectOk(answer);
  return answer.body.items;
};

/** A posted comment's id, failing the test with the answer when it was refused. */
async function posted(as: SignedInUser, storyId: string, body: string, parentId?: string): Promise<string> {
  const answer = await comment(as, storyId, { body, ...(parentId ? { parentId } : {}) });
  expectOk(answer, 201);
  return answer.body.comment.id;
}

describe('story comments', () => {
  it('reads threads in order, each reply under its parent, rendered from the Markdown, to anyone', async () => {
    // Prepare
    const [sharer, ana, bo] = await Promise.all([suite.api.signIn('sharer'), suite.api.signIn('ana'), suite.api.signIn('bo')]);
    const storyId = await storyInTable(sharer, 'Threads');
    const first = await posted(ana, storyId, 'First, with **strong** words and [a link](https://example.com/a).');
    const second = await posted(bo, storyId, 'Second on the story');
    const reply = await posted(bo, storyId, '> First\n\nA reply to it', first);

    // Act
    const answer = await comments(storyId);

    // Assess
    expectOk(answer);
    expect(answer.body.items.map((item) => [item.id, item.parentId, item.depth])).toEqual([
      [first, null, 0],
      [reply, first, 1],
      [second, null, 0],
    ]);
    expect(answer.body.items[0]).toMatchObject({
      state: 'visible',
      author: { userId: ana.userId, username: ana.username },
      html: '<p>First, with <strong>strong</strong> words and <a href="https://example.com/a" rel="nofollow ugc noopener">a link</a>.</p>',
      replyCount: 1,
      editableUntil: null,
    });
    expect(answer.body.items[1]?.html).toBe('<blockquote><p>First</p></blockquote>\n<p>A reply to it</p>');
    expect(answer.body.commentCount).toBe(3);
    const story = await suite.api.call(routes.getStory, { params: { id: storyId } });
    expectOk(story);
    expect(story.body.story.commentCount).toBe(3);
  });

  it('neutralises HTML and script links in the answer and in the mail to the sharer', async () => {
    // Prepare
    const [sharer, mallory] = await Promise.all([suite.api.signIn('xss-sharer'), suite.api.signIn('mallory')]);
    const storyId = await storyInTable(sharer, 'Safe');
    const body = '<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) [data](data:text/html,<b>x</b>)';

    // Act
    const answer = await comment(mallory, storyId, { body });

    // Assess: the text is kept as written, its html holds no markup but the paragraph
    expectOk(answer, 201);
    expect(answer.body.comment.body).toBe(body);
    expect(answer.body.comment.html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; [click](javascript:alert(3)) [data](data:text/html,&lt;b&gt;x&lt;/b&gt;)</p>',
    );
    const [mail] = mailTo(suite.runtime.mailDir, sharer.email);
    expect(mail?.html).toContain('commented on your story');
    expect(mail?.html).not.toMatch(/<script|<img/i);
  });

  it('refuses an empty comment and one over 10,000 characters with a message', async () => {
    // Prepare
    const [sharer, ana] = await Promise.all([suite.api.signIn('len-sharer'), suite.api.signIn('len-ana')]);
    const storyId = await storyInTable(sharer, 'Lengths');

    // Act
    const empty = await comment(ana, storyId, { body: '   ' });
    const long = await comment(ana, storyId, { body: 'x'.repeat(10_001) });
    const longest = await comment(ana, storyId, { body: 'x'.repeat(10_000) });

    // Assess
    expectError(empty, 400);
    expect(empty.text).toContain('the comment is empty');
    expectError(long, 400);
    expect(long.text).toContain('at most 10,000 characters');
    expectOk(longest, 201);
  });

  it('hides the comments of someone the reader blocked, and refuses replies between them both ways', async () => {
    // Prepare
    const [sharer, ana, troll] = await Promise.all([
      suite.api.signIn('block-sharer'),
      suite.api.signIn('block-ana'),
      suite.api.signIn('block-troll'),
    ]);
    const storyId = await storyInTable(sharer, 'Blocks');
    const anas = await posted(ana, storyId, 'Mine');
    const trolls = await posted(troll, storyId, 'Troll text one');
    const trollWithReply = await posted(troll, storyId, 'Troll text two');
    await posted(sharer, storyId, 'Answering the bait', trollWithReply);
    expectOk(await suite.api.call(routes.blockUser, { params: { userId: troll.userId }, as: ana }));

    // Act
    const seenByAna = await comments(storyId, ana);
    const seenByOthers = await comments(storyId, sharer);
    const trollReplies = await comment(troll, storyId, { body: 'Hey', parentId: anas });
    const anaReplies = await comment(ana, storyId, { body: 'Stop', parentId: trolls });

    // Assess: the troll's comment is gone for Ana, the one with a reply is a placeholder; others see all
    expectOk(seenByAna);
    expect(seenByAna.body.items.map((item) => item.id)).not.toContain(trolls);
    expect(seenByAna.body.items.find((item) => item.id === trollWithReply)).toMatchObject({ state: 'hidden', author: null, body: null });
    expect(JSON.stringify(seenByAna.body)).not.toContain('Troll text');
    expectOk(seenByOthers);
    expect(seenByOthers.body.items).toHaveLength(4);
    expectError(trollReplies, 403);
    expect(trollReplies.body.message).toBe('You cannot reply to this comment: you or its author has blocked the other.');
    expectError(anaReplies, 403);
  });

  it('answers 404 for the comments of a story that is gone, and for a reply to an unknown comment', async () => {
    // Prepare
    const [sharer, ana] = await Promise.all([suite.api.signIn('gone-sharer'), suite.api.signIn('gone-ana')]);
    const storyId = await storyInTable(sharer, 'Soon gone');
    const other = await storyInTable(sharer, 'Still here');
    await getDb().entities.story.delete({ storyId }).go();

    // Act
    const list = await comments(storyId);
    const add = await comment(ana, storyId, { body: 'Hello?' });
    const reply = await comment(ana, other, { body: 'Hello?', parentId: 'lz0000000AAAAAAAA' });

    // Assess
    expectError(list, 404);
    expectError(add, 404);
    expect(add.body.message).toBe(`There is no story with id ${storyId}.`);
    expectError(reply, 404);
  });

  it('lets the author edit for 10 minutes, and nobody else', async () => {
    // Prepare
    const [sharer, ana, bo] = await Promise.all([suite.api.signIn('edit-sharer'), suite.api.signIn('edit-ana'), suite.api.signIn('edit-bo')]);
    const storyId = await storyInTable(sharer, 'Edits');
    const fresh = await posted(ana, storyId, 'Tpyo');
    const old = await posted(ana, storyId, 'Old words');
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000).toISOString();
    await getDb().entities.comment.patch({ storyId, commentId: old }).set({ createdAt: elevenMinutesAgo }).go();
    const edit = (as: SignedInUser, commentId: string, body: string) =>
      suite.api.call(routes.editStoryComment, { params: { id: storyId, commentId }, body: { body }, as });

    // Act
    const own = await edit(ana, fresh, 'Typo *fixed*');
    const late = await edit(ana, old, 'New words');
    const someoneElses = await edit(bo, fresh, 'Hijacked');

    // Assess
    expectOk(own);
    expect(own.body.comment).toMatchObject({ body: 'Typo *fixed*', html: '<p>Typo <em>fixed</em></p>' });
    expect(own.body.comment.editedAt).not.toBeNull();
    expect(own.body.comment.editableUntil).not.toBeNull();
    expectError(late, 403);
    expect(late.body.message).toBe('Comments can be edited for 10 minutes after posting: this one can no longer be changed.');
    expectError(someoneElses, 403);
    expect(someoneElses.body.message).toBe('You can only edit your own comments.');
    const list = await comments(storyId);
    expectOk(list);
    expect(list.body.items.map((item) => item.body)).toEqual(['Typo *fixed*', 'Old words']);
  });

  it('deletes a comment with replies to a "[deleted]" placeholder and one without altogether, keeping the count exact', async () => {
    // Prepare
    const [sharer, ana, bo] = await Promise.all([suite.api.signIn('del-sharer'), suite.api.signIn('del-ana'), suite.api.signIn('del-bo')]);
    const storyId = await storyInTable(sharer, 'Deletes');
    const parent = await posted(ana, storyId, 'Parent');
    const reply = await posted(bo, storyId, 'Reply', parent);
    const lonely = await posted(ana, storyId, 'Lonely');
    const remove = (as: SignedInUser, commentId: string) =>
      suite.api.call(routes.deleteStoryComment, { params: { id: storyId, commentId }, as });

    // Act
    const notTheirs = await remove(bo, parent);
    const withReplies = await remove(ana, parent);
    const again = await remove(ana, parent);
    const alone = await remove(ana, lonely);

    // Assess
    expectError(notTheirs, 403);
    expectOk(withReplies);
    expect(withReplies.body).toMatchObject({ comment: { state: 'deleted', author: null, body: null, html: '<p>[deleted]</p>' }, commentCount: 2 });
    expectOk(again);
    expect(again.body.commentCount).toBe(2);
    expectOk(alone);
    expect(alone.body).toEqual({ comment: null, commentCount: 1 });
    const list = await comments(storyId);
    expectOk(list);
    expect(list.body.items.map((item) => [item.id, item.state])).toEqual([
      [parent, 'deleted'],
      [reply, 'visible'],
    ]);
    expect(JSON.stringify(list.body.items[0])).not.toContain('Parent');
    expect(list.body.commentCount).toBe(1);
    expectError(await comment(bo, storyId, { body: 'Late reply', parentId: parent }), 410);
  });

  it('takes reports of comments to the moderators, whose removal leaves "removed" and resolves the reports', async () => {
    // Prepare
    const [sharer, ana, bo, moderator] = await Promise.all([
      suite.api.signIn('mod-sharer'),
      suite.api.signIn('mod-ana'),
      suite.api.signIn('mod-bo'),
      suite.api.signIn('mod-admin', { superuser: true }),
    ]);
    const storyId = await storyInTable(sharer, 'Moderated');
    const spam = await posted(ana, storyId, 'Buy things');
    const params = { id: storyId, commentId: spam };

    // Act
    const own = await suite.api.call(routes.reportStoryComment, { params, body: { reason: 'spam' }, as: ana });
    const report = await suite.api.call(routes.reportStoryComment, { params, body: { reason: 'spam', details: 'ads' }, as: bo });
    const open = await suite.api.call(routes.listOpenReports, { as: moderator });
    const byUser = await suite.api.call(routes.removeStoryComment, { params, as: bo });
    const removal = await suite.api.call(routes.removeStoryComment, { params, as: moderator });
    const list = await comments(storyId);
    const reply = await comment(bo, storyId, { body: 'Replying anyway', parentId: spam });
    const openAfter = await suite.api.call(routes.listOpenReports, { as: moderator });

    // Assess
    expectError(own, 400);
    expectOk(report);
    expect(report.body.isNew).toBe(true);
    expectOk(open);
    const reportId = commentReportId(storyId, spam);
    expect(open.body.items).toContainEqual(expect.objectContaining({ objectType: 'comment', objectId: reportId, details: 'ads' }));
    expectError(byUser, 403);
    expectOk(removal);
    expect(removal.body).toMatchObject({ comment: { state: 'removed', author: null, body: null, html: '<p>[removed]</p>' }, commentCount: 0 });
    expectOk(list);
    expect(list.body.items).toEqual([expect.objectContaining({ id: spam, state: 'removed', author: null, body: null })]);
    expect(list.body.commentCount).toBe(0);
    expectError(reply, 410);
    expect(reply.body.message).toBe('This comment was removed by a moderator.');
    expectOk(openAfter);
    expect(openAfter.body.items.map((item) => item.objectId)).not.toContain(reportId);
  });

  it('notifies the sharer and the parent comment author once per comment, never the writer', async () => {
    // Prepare
    const [sharer, ana, bo] = await Promise.all([suite.api.signIn('bell-sharer'), suite.api.signIn('bell-ana'), suite.api.signIn('bell-bo')]);
    const storyId = await storyInTable(sharer, 'Bells');

    // Act
    const anas = await posted(ana, storyId, 'A comment');
    await posted(bo, storyId, 'A reply', anas);
    await posted(bo, storyId, 'Another reply', anas);
    await posted(sharer, storyId, 'The sharer replies', anas);
    await posted(ana, storyId, 'Ana answers herself', anas);

    // Assess: the sharer hears of every comment but their own; Ana of the three replies by others; Bo of nothing
    const sharers = await unseen(sharer);
    expect(sharers.map((item) => item.actors[0]?.userId).sort()).toEqual([ana.userId, ana.userId, bo.userId, bo.userId].sort());
    expect(new Set(sharers.map((item) => item.kind))).toEqual(new Set(['story-commented']));
    const anasBell = await unseen(ana);
    expect(anasBell.map((item) => item.actors[0]?.userId).sort()).toEqual([bo.userId, bo.userId, sharer.userId].sort());
    expect(new Set(anasBell.map((item) => item.kind))).toEqual(new Set(['comment-replied']));
    expect(anasBell[0]?.object).toMatchObject({ type: 'story', id: storyId, title: 'Bells' });
    expect(await unseen(bo)).toEqual([]);
    const counts = await suite.api.call(routes.countUnseenNotifications, { as: sharer });
    expectOk(counts);
    expect(counts.body.numUnseenNotifications).toBe(4);
  });

  it('keeps the comment count exact under 50 comments at once, each telling the sharer once', async () => {
    // Prepare: ten people, five comments each (the per-minute limit)
    const sharer = await suite.api.signIn('busy-sharer');
    const people = await Promise.all(Array.from({ length: 10 }, (_, index) => suite.api.signIn(`busy-${index}`)));
    const storyId = await storyInTable(sharer, 'Busy');

    // Act
    const answers = await Promise.all(
      people.flatMap((person) => Array.from({ length: 5 }, (_, index) => comment(person, storyId, { body: `Comment ${index}` }))),
    );

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    const list = await comments(storyId);
    expectOk(list);
    expect(list.body.items).toHaveLength(50);
    expect(list.body.commentCount).toBe(50);
    const counts = await suite.api.call(routes.countUnseenNotifications, { as: sharer });
    expectOk(counts);
    expect(counts.body.numUnseenNotifications).toBe(50);
  });

  it('limits how fast one person comments, saying how long to wait', async () => {
    // Prepare
    const [sharer, hasty] = await Promise.all([suite.api.signIn('rate-sharer'), suite.api.signIn('rate-hasty')]);
    const storyId = await storyInTable(sharer, 'Rate');

    // Act: eleven tries fill a minute's window of five whatever the clock
    let refused;
    for (let attempt = 0; attempt < 11 && !refused; attempt += 1) {
      const answer = await comment(hasty, storyId, { body: `Fast ${attempt}` });
      if (answer.status !== 201) refused = answer;
    }

    // Assess
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused?.text).toContain('You are commenting very fast');
  });
});
