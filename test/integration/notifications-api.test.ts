import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { mailCooldownKey } from '../../functions/lib/mailer';
import { notificationEmail } from '../../functions/lib/notification-mail';
import { prepareNotification } from '../../functions/lib/notifications';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';
import { storyInTable } from '../support/stories';

const suite = apiSuite();

async function openAndLike(storyId: string, reader: SignedInUser, status: 'on' | 'off' = 'on'): Promise<void> {
  await suite.api.call(routes.openStory, { params: { id: storyId }, as: reader });
  expectOk(await suite.api.call(routes.likeStory, { params: { id: storyId, status }, as: reader }));
}

const unseen = (as: SignedInUser, query: { cursor?: string; limit?: number } = {}) =>
  suite.api.call(routes.listUnseenNotifications, { as, query });
const seen = (as: SignedInUser, query: { cursor?: string; limit?: number } = {}) =>
  suite.api.call(routes.listSeenNotifications, { as, query });
const counts = (as: SignedInUser) => suite.api.call(routes.countUnseenNotifications, { as });
const markSeen = (as: SignedInUser, ids: unknown) =>
  suite.api.call(routes.markNotificationsSeen, { as, body: { ids } as { ids: string[] } });

describe('notifications from likes and follows', () => {
  let sharer: SignedInUser;
  let readers: SignedInUser[];
  let storyId: string;

  beforeAll(async () => {
    const people = await Promise.all(['sharer', 'ana', 'bo', 'cy', 'di'].map((label) => suite.api.signIn(label)));
    sharer = people[0] as SignedInUser;
    readers = people.slice(1);
    storyId = await storyInTable(sharer, 'How we ship every day');
  });

  it('tells the sharer who liked their story, and counts it once per group', async () => {
    // Act
    await openAndLike(storyId, readers[0] as SignedInUser);
    const afterOne = await counts(sharer);
    await openAndLike(storyId, readers[1] as SignedInUser);
    await openAndLike(storyId, readers[2] as SignedInUser);
    const list = await unseen(sharer);
    const total = await counts(sharer);

    // Assess
    expectOk(afterOne);
    expect(afterOne.body).toEqual({ numUnseenNotifications: 1, ssoAppNumUnseenNotifications: 0, total: 1 });
    expectOk(list);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      kind: 'story-liked',
      app: 'toppubs',
      object: { type: 'story', id: storyId, title: 'How we ship every day' },
      actorCount: 3,
      seen: false,
    });
    // Newest first: "Cy, Bo and Ana liked your story".
    expect(list.body.items[0]?.actors.map((actor) => actor.userId)).toEqual(
      [readers[2], readers[1], readers[0]].map((reader) => reader?.userId),
    );
    expectOk(total);
    expect(total.body.total).toBe(1);
  });

  it('says nothing new when someone likes again after taking their like back', async () => {
    // Act
    await openAndLike(storyId, readers[0] as SignedInUser, 'off');
    await openAndLike(storyId, readers[0] as SignedInUser, 'on');
    const list = await unseen(sharer);

    // Assess
    expectOk(list);
    expect(list.body.items[0]?.actorCount).toBe(3);
  });

  it('tells a person who followed them, apart from the likes', async () => {
    // Act
    expectOk(
      await suite.api.call(routes.followUser, {
        params: { userId: sharer.userId, status: 'on' },
        as: readers[3] as SignedInUser,
      }),
    );
    const list = await unseen(sharer);
    const total = await counts(sharer);
    const { data: sharerItem } = await getDb().entities.user.get({ userId: sharer.userId }).go({ consistent: true });

    // Assess
    expectOk(list);
    expect(list.body.items.map((item) => item.kind)).toEqual(['user-followed', 'story-liked']);
    expect(list.body.items[0]).toMatchObject({ object: { type: 'user', id: sharer.userId }, actorCount: 1 });
    expectOk(total);
    expect(total.body.total).toBe(2);
    // The follower count and the unseen count moved in the one write of the sharer's item.
    expect(sharerItem).toMatchObject({ followerCount: 1, numUnseenNotifications: 2 });
  });

  it("marks only the caller's own notifications seen, ignoring anyone else's ids", async () => {
    // Prepare: a notification of another user's, whose id the caller sends too
    const other = readers[0] as SignedInUser;
    expectOk(
      await suite.api.call(routes.followUser, { params: { userId: other.userId, status: 'on' }, as: readers[1] as SignedInUser }),
    );
    const othersList = await unseen(other);
    expectOk(othersList);
    const othersId = othersList.body.items[0]?.id as string;
    const mine = await unseen(sharer);
    expectOk(mine);
    const myIds = mine.body.items.map((item) => item.id);

    // Act
    const answer = await markSeen(sharer, [...myIds, othersId, 'no-such-notification']);
    const again = await markSeen(sharer, myIds);

    // Assess
    expectOk(answer);
    expect(answer.body).toEqual({ marked: 2, counts: { numUnseenNotifications: 0, ssoAppNumUnseenNotifications: 0, total: 0 } });
    expectOk(again);
    expect(again.body.marked).toBe(0);
    const stillUnseen = await unseen(sharer);
    expectOk(stillUnseen);
    expect(stillUnseen.body.items).toEqual([]);
    const nowSeen = await seen(sharer);
    expectOk(nowSeen);
    expect(nowSeen.body.items.map((item) => item.id).sort()).toEqual([...myIds].sort());
    expect(nowSeen.body.items.every((item) => item.seen)).toBe(true);
    const othersAfter = await unseen(other);
    expectOk(othersAfter);
    expect(othersAfter.body.items.map((item) => item.id)).toEqual([othersId]);
    const othersCount = await counts(other);
    expectOk(othersCount);
    expect(othersCount.body.total).toBe(1);
  });

  it('starts a new notification for a like after the group was seen', async () => {
    // Act
    await openAndLike(storyId, readers[3] as SignedInUser);
    const list = await unseen(sharer);
    const total = await counts(sharer);

    // Assess
    expectOk(list);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ kind: 'story-liked', actorCount: 1 });
    expectOk(total);
    expect(total.body.total).toBe(1);
  });

  it('answers the screen: both lists and the counts', async () => {
    // Act
    const screen = await suite.api.call(routes.getNotificationsScreen, { as: sharer });

    // Assess
    expectOk(screen);
    expect(screen.body.unseen.items).toHaveLength(1);
    expect(screen.body.seen.items).toHaveLength(2);
    expect(screen.body.counts.total).toBe(1);
  });

  it('keeps one notification and an exact count when many people like at once', async () => {
    // Prepare
    const crowd = await Promise.all(Array.from({ length: 12 }, (_, index) => suite.api.signIn(`crowd${index}`)));
    const crowdStory = await storyInTable(sharer, 'Popular');
    await Promise.all(crowd.map((person) => suite.api.call(routes.openStory, { params: { id: crowdStory }, as: person })));
    const before = await counts(sharer);
    expectOk(before);

    // Act
    const answers = await Promise.all(
      crowd.map((person) => suite.api.call(routes.likeStory, { params: { id: crowdStory, status: 'on' }, as: person })),
    );

    // Assess
    for (const answer of answers) expectOk(answer);
    const list = await unseen(sharer);
    expectOk(list);
    const group = list.body.items.filter((item) => item.object.id === crowdStory);
    expect(group).toHaveLength(1);
    expect(group[0]?.actorCount).toBe(12);
    expect(group[0]?.actors).toHaveLength(3);
    const after = await counts(sharer);
    expectOk(after);
    expect(after.body.total).toBe(before.body.total + 1);
  }, 60_000);
});

describe('who is not told', () => {
  it('never tells someone about their own doing, nor about someone they blocked', async () => {
    // Prepare
    const [owner, blocked] = await Promise.all([suite.api.signIn('owner'), suite.api.signIn('blocked')]);
    expectOk(await suite.api.call(routes.blockUser, { params: { userId: blocked.userId }, as: owner }));
    const event = { kind: 'story-author-claimed' as const, object: { type: 'story' as const, id: 'story-x' }, at: new Date() };

    // Act
    const ownDoing = await prepareNotification(getDb(), { ...event, recipientId: owner.userId, actorId: owner.userId });
    const fromBlocked = await prepareNotification(getDb(), { ...event, recipientId: owner.userId, actorId: blocked.userId });
    const toNobody = await prepareNotification(getDb(), { ...event, recipientId: 'no-such-user', actorId: owner.userId });

    // Assess
    expect(ownDoing).toBeNull();
    expect(fromBlocked).toBeNull();
    expect(toNobody).toBeNull();
  });
});

describe('paging and bad input', () => {
  let reader: SignedInUser;
  let stranger: SignedInUser;

  beforeAll(async () => {
    [reader, stranger] = await Promise.all([suite.api.signIn('pager'), suite.api.signIn('stranger')]);
    const db = getDb();
    // 25 notifications on different objects, a second apart, as 25 claims would leave them.
    for (let index = 0; index < 25; index += 1) {
      const writes = await prepareNotification(db, {
        recipientId: reader.userId,
        actorId: stranger.userId,
        kind: 'story-author-claimed',
        object: { type: 'story', id: `story-${index}`, title: `Story ${index}` },
        at: new Date(Date.UTC(2026, 10, 1, 0, 0, index)),
      });
      if (!writes) throw new Error('expected a notification');
      await db.transaction.write((entities) => writes.commits(entities)).go();
    }
  });

  it('pages newest first with a cursor, each notification once', async () => {
    // Act
    const titles: (string | null)[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await unseen(reader, { limit: 10, ...(cursor ? { cursor } : {}) });
      expectOk(page);
      titles.push(...page.body.items.map((item) => item.object.title));
      cursor = page.body.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 10);

    // Assess
    expect(titles).toEqual(Array.from({ length: 25 }, (_, index) => `Story ${24 - index}`));
  });

  it("refuses a cursor that is not one, or that reads another user's list", async () => {
    // Prepare
    const first = await unseen(reader, { limit: 5 });
    expectOk(first);
    const readersCursor = first.body.nextCursor as string;

    // Act
    const stolen = await unseen(stranger, { cursor: readersCursor });
    const garbage = await unseen(reader, { cursor: 'bm90LWpzb24' });
    const notBase64 = await unseen(reader, { cursor: '{"pk":"x"}' });

    // Assess
    expectError(stolen, 400, 'BAD_REQUEST');
    expect(stolen.body.message).toBe('That page link is not valid. Start again from the first page.');
    expectError(garbage, 400, 'BAD_REQUEST');
    expectError(notBase64, 400);
  });

  it('refuses callers who are not signed in, and malformed marks', async () => {
    // Act
    const anonymous = await suite.api.call(routes.countUnseenNotifications);
    const empty = await markSeen(reader, []);
    const notAList = await markSeen(reader, 'all');
    const tooMany = await markSeen(
      reader,
      Array.from({ length: 101 }, (_, index) => `id-${index}`),
    );

    // Assess
    expectError(anonymous, 401);
    expectError(empty, 400);
    expectError(notAList, 400);
    expectError(tooMany, 400);
  });
});

describe('deleting an account', () => {
  it("removes its follows with the other people's counts, and its notifications", async () => {
    // Prepare: the leaver follows a friend and is followed by a fan, and has been notified
    const [leaver, friend, fan] = await Promise.all([
      suite.api.signIn('leaver'),
      suite.api.signIn('friend'),
      suite.api.signIn('fan'),
    ]);
    const follow = (as: SignedInUser, userId: string) =>
      suite.api.call(routes.followUser, { params: { userId, status: 'on' }, as });
    expectOk(await follow(leaver, friend.userId));
    expectOk(await follow(fan, leaver.userId));
    const notified = await unseen(leaver);
    expectOk(notified);
    expect(notified.body.items).toHaveLength(1);

    // Act
    expectOk(await suite.api.call(routes.deleteAccount, { as: leaver }));

    // Assess
    const db = getDb();
    const [{ data: friendItem }, { data: fanItem }] = await Promise.all([
      db.entities.user.get({ userId: friend.userId }).go({ consistent: true }),
      db.entities.user.get({ userId: fan.userId }).go({ consistent: true }),
    ]);
    expect(friendItem?.followerCount).toBe(0);
    expect(fanItem?.followingCount).toBe(0);
    const [{ data: follows }, { data: followers }, { data: notifications }, { data: groups }] = await Promise.all([
      db.entities.follow.query.byFollower({ followerId: leaver.userId }).go(),
      db.entities.follow.query.byFollowed({ followedId: leaver.userId }).go(),
      db.entities.notification.query.byId({ userId: leaver.userId }).go(),
      db.entities.notificationGroup.query.byGroup({ userId: leaver.userId }).go(),
    ]);
    expect([follows, followers, notifications, groups]).toEqual([[], [], [], []]);
  });
});

describe('notification emails', () => {
  /** As if ten minutes had passed since the last notification email to the address. */
  const endMailCooldown = async (email: string) => {
    const db = getDb();
    const key = mailCooldownKey(notificationEmail, email);
    const { data } = await db.entities.rateLimit.query.byKeyAndWindow({ key }).go();
    await Promise.all(data.map((item) => db.entities.rateLimit.delete({ key, windowStart: item.windowStart }).go()));
  };
  const unsubscribeLinkOf = (mail: { text: string | undefined }) =>
    new URL(/Stop these emails: (\S+)/.exec(mail.text ?? '')?.[1] ?? 'http://missing/');

  it('emails a new notification once, with a link that turns these emails off', async () => {
    // Prepare
    const [sharer, first, second] = await Promise.all([
      suite.api.signIn('mailed'),
      suite.api.signIn('liker-one'),
      suite.api.signIn('liker-two'),
    ]);
    const storyId = await storyInTable(sharer, 'Mailed story');

    // Act: two likes make one notification, so one mail, even past the pause between mails
    await openAndLike(storyId, first);
    await endMailCooldown(sharer.email);
    await openAndLike(storyId, second);
    const mails = await mailsTo(suite.runtime.mailDir, sharer.email);

    // Assess
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.headers.subject).toMatch(/liked your story “Mailed story”$/);
    expect(mail?.text).toContain('/notifications');
    expect(mail?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail?.headers['list-unsubscribe']).toMatch(/^<http.+\/api\/i\/user\/email\/unsubscribe\?token=[A-Za-z0-9_-]+>$/);
    expect(unsubscribeLinkOf(mail as { text: string }).pathname).toBe('/unsubscribe');
  });

  it("unsubscribes by a mail client's one-click post, every time, and sends no more", async () => {
    // Prepare
    const [person, liker, follower] = await Promise.all([
      suite.api.signIn('one-click'),
      suite.api.signIn('liker'),
      suite.api.signIn('follower'),
    ]);
    await openAndLike(await storyInTable(person, 'First'), liker);
    const [mail] = await mailsTo(suite.runtime.mailDir, person.email);
    const token = unsubscribeLinkOf(mail as { text: string }).searchParams.get('token') as string;
    const oneClick = () =>
      suite.api.call(routes.unsubscribeNotificationEmails, {
        query: { token },
        rawBody: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-application-id': undefined },
      });

    // Act: unsubscribe, then (past the ten-minute pause between notification emails) a new notification
    const answer = await oneClick();
    const again = await oneClick();
    await endMailCooldown(person.email);
    expectOk(await suite.api.call(routes.followUser, { params: { userId: person.userId, status: 'on' }, as: follower }));

    // Assess
    expectOk(answer);
    expect(answer.body).toEqual({ unsubscribed: true });
    expectOk(again);
    const account = await suite.api.call(routes.getAccount, { as: person });
    expectOk(account);
    expect(account.body.emailPreferences).toMatchObject({ notificationEmails: false, productUpdates: true });
    expect(await mailsTo(suite.runtime.mailDir, person.email)).toHaveLength(1);
    const notified = await unseen(person);
    expectOk(notified);
    expect(notified.body.items.map((item) => item.kind)).toContain('user-followed');
  });

  it('refuses a link that is not one', async () => {
    // Act
    const forged = await suite.api.call(routes.unsubscribeNotificationEmails, { query: { token: 'not-a-real-token' } });
    const missing = await suite.api.call(routes.unsubscribeNotificationEmails, { query: {} as { token: string } });

    // Assess
    expectError(forged, 400, 'BAD_REQUEST');
    expect(forged.body.message).toMatch(/not valid any more/);
    expectError(missing, 400);
  });
});
