import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { fanOutMessageSchema } from '../../functions/lib/notification-fanout';
import { digestPageMessageSchema } from '../../functions/ranking/lib/publication-digest';
import type { QueueName } from '../../shared/queues';
import { routes } from '../../shared/routes';
import type { RankedPublication } from '../../shared/schemas/ranking';
import { apiSuite } from '../support/api-suite';
import { expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';
import { writeSyntheticFollowers } from '../support/synthetic-follows';

/** A board to climb on; few publications, as the news is about one of them. */
const suite = apiSuite({ seedPublications: 20 });
const QUEUE = 'notification-fanout';
const DIGEST_QUEUE = 'publication-digest';
/** More than one page of recipients (100), so the fan-out pages. */
const SYNTHETIC_FOLLOWERS = 117;
const DIGEST_SUBJECT = 'Your publications this week on TopPubs';

let target: RankedPublication;
let ana: SignedInUser;
let bo: SignedInUser;
let synthetic: string[];
/** The message the job queued, as it was sent. */
let queued: string;

/** Every publication-rose notification of each person, by person. */
async function roseNotifications(userIds: readonly string[]) {
  const db = getDb();
  const lists = await Promise.all(
    userIds.map(async (userId) => {
      const { data } = await db.entities.notification.query.byId({ userId }).go({ pages: 'all' });
      return data.filter((item) => item.kind === 'publication-rose' && item.objectId === target.slug);
    }),
  );
  return new Map(userIds.map((userId, index) => [userId, lists[index] ?? []]));
}

async function unseenCounts(userIds: readonly string[]): Promise<number[]> {
  const { data } = await getDb()
    .entities.user.get(userIds.map((userId) => ({ userId })))
    .go();
  const byId = new Map(data.map((user) => [user.userId, user.numUnseenNotifications ?? 0]));
  return userIds.map((userId) => byId.get(userId) ?? -1);
}

/** As SQS delivers a message again (at least once): the consumer cannot tell it from the first. */
async function deliverAgain(body: string, queue: QueueName = QUEUE): Promise<void> {
  const client = new SQSClient({
    region: 'us-east-1',
    endpoint: suite.runtime.workQueues.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await client.send(new SendMessageCommand({ QueueUrl: suite.runtime.workQueues.url(queue), MessageBody: body }));
  client.destroy();
}

describe('notification fan-out through the queue', () => {
  it('queues one message for a publication that rose, and its consumers tell each of its 120 followers once', async () => {
    // Prepare: ana and bo follow the #1 publication (bo turned notification emails off), with 117
    // synthetic followers and one whose account is gone; the job's last look saw it at #150.
    [ana, bo] = await Promise.all([suite.api.signIn('ana'), suite.api.signIn('bo')]);
    const page = await suite.api.call(routes.loadPubs, { query: { limit: 1 } });
    expectOk(page);
    target = page.body.items[0] as RankedPublication;
    for (const person of [ana, bo]) {
      expectOk(await suite.api.call(routes.followPublication, { params: { slug: target.slug, status: 'on' }, as: person }));
    }
    expectOk(
      await suite.api.call(routes.updateEmailPreferences, {
        body: { productUpdates: true, weeklyDigest: true, notificationEmails: false },
        as: bo,
      }),
    );
    const db = getDb();
    synthetic = await writeSyntheticFollowers(db, { slug: target.slug, count: SYNTHETIC_FOLLOWERS, prefix: 'fan' });
    await db.entities.publicationFollow
      .put({ userId: 'gone-account', slug: target.slug, createdAt: new Date().toISOString() })
      .go();
    await db.entities.publicationWatch
      .patch({ slug: target.slug })
      .set({ lastRanks: { 'followers.all': 150 }, baselines: { 'followers.all': 150 }, runId: 'an-older-run' })
      .add({ followerCount: 1 })
      .go();
    const followers = [ana.userId, bo.userId, ...synthetic];
    // As an event source mapping disabled: what the job sends waits in the queue.
    suite.runtime.workQueues.setConsumerEnabled(QUEUE, false);

    // Act
    await suite.runtime.runJob('rank-publications');
    const waiting = [...suite.runtime.workQueues.waiting(QUEUE)];
    const countsWhenTheJobReturned = await unseenCounts(followers);
    suite.runtime.workQueues.setConsumerEnabled(QUEUE, true);
    await suite.runtime.queuesSettled();

    // Assess: the job read no follower; it queued the news, and nobody had heard it yet.
    expect(waiting).toHaveLength(1);
    queued = waiting[0] as string;
    const message = fanOutMessageSchema.parse(JSON.parse(queued));
    expect(message).toMatchObject({
      step: 'expand',
      cursor: null,
      event: { kind: 'publication-rose', audience: { type: 'publication-followers', slug: target.slug } },
    });
    expect(countsWhenTheJobReturned.every((count) => count === 0)).toBe(true);
    // Then each follower has exactly one notification, counted once.
    const notifications = await roseNotifications(followers);
    expect([...notifications.values()].map((list) => list.length)).toEqual(followers.map(() => 1));
    expect(notifications.get(ana.userId)?.[0]).toMatchObject({
      state: 'unseen',
      objectTitle: target.name,
      objectDetail: 'entered the top 100 of Most followed at #1',
    });
    expect(await unseenCounts(followers)).toEqual(followers.map(() => 1));
    const listed = await suite.api.call(routes.listUnseenNotifications, { as: bo, query: {} });
    expectOk(listed);
    expect(listed.body.items.map((item) => [item.kind, item.object.id])).toEqual([['publication-rose', target.slug]]);
    // Mail as each one's preferences say; the gone account is not brought back; nothing failed.
    expect(await mailsTo(suite.runtime.mailDir, ana.email)).toHaveLength(1);
    expect(await mailsTo(suite.runtime.mailDir, bo.email)).toHaveLength(0);
    expect((await db.entities.user.get({ userId: 'gone-account' }).go()).data).toBeNull();
    expect(suite.runtime.workQueues.waiting(QUEUE)).toEqual([]);
  });

  it('writes nothing twice when the messages are delivered again, not even to a follower who has seen it since', async () => {
    // Prepare: ana has seen hers.
    const followers = [ana.userId, bo.userId, ...synthetic];
    const before = await roseNotifications([ana.userId]);
    const seen = await suite.api.call(routes.markNotificationsSeen, {
      body: { ids: (before.get(ana.userId) ?? []).map((item) => item.notificationId) },
      as: ana,
    });
    expectOk(seen);

    // Act: the same message twice more, read again from the start, each page written again.
    await Promise.all([deliverAgain(queued), deliverAgain(queued)]);
    await suite.runtime.queuesSettled();

    // Assess
    const notifications = await roseNotifications(followers);
    expect([...notifications.values()].map((list) => list.length)).toEqual(followers.map(() => 1));
    expect(notifications.get(ana.userId)?.[0]?.state).toBe('seen');
    expect(await unseenCounts(followers)).toEqual([0, ...followers.slice(1).map(() => 1)]);
    expect(await mailsTo(suite.runtime.mailDir, ana.email)).toHaveLength(1);
    expect(suite.runtime.workQueues.waiting(QUEUE)).toEqual([]);
  });
});

describe('the weekly digest through its queue', () => {
  it("queues the digest's readers a page at a time, and its consumers mail each reader who wants it once", async () => {
    // Prepare: the fan-out's 120 followers (ana, bo, 117 synthetic people without an address, a gone account).
    const digestsTo = async (email: string) =>
      (await mailsTo(suite.runtime.mailDir, email)).filter((mail) => mail.headers.subject === DIGEST_SUBJECT);
    suite.runtime.workQueues.setConsumerEnabled(DIGEST_QUEUE, false);

    // Act: the job queues, then the consumers mail, then every page is delivered twice more.
    await suite.runtime.runJob('send-publication-digest');
    const pages = [...suite.runtime.workQueues.waiting(DIGEST_QUEUE)];
    const digestsWhenTheJobReturned = await digestsTo(ana.email);
    suite.runtime.workQueues.setConsumerEnabled(DIGEST_QUEUE, true);
    await suite.runtime.queuesSettled();
    await Promise.all(pages.flatMap((page) => [deliverAgain(page, DIGEST_QUEUE), deliverAgain(page, DIGEST_QUEUE)]));
    await suite.runtime.queuesSettled();

    // Assess: two pages of ids (100 and 20), no mail from the job itself, one digest each
    const readers = pages.map((page) => digestPageMessageSchema.parse(JSON.parse(page)).userIds);
    expect(readers.map((ids) => ids.length).sort((a, b) => b - a)).toEqual([100, 20]);
    expect(new Set(readers.flat())).toEqual(new Set([ana.userId, bo.userId, ...synthetic, 'gone-account']));
    expect(digestsWhenTheJobReturned).toHaveLength(0);
    const [anasDigests, bosDigests] = await Promise.all([digestsTo(ana.email), digestsTo(bo.email)]);
    expect(anasDigests).toHaveLength(1);
    expect(anasDigests[0]?.text).toContain(`${target.name}: `);
    // bo turned notification emails off, not the digest.
    expect(bosDigests).toHaveLength(1);
    expect(suite.runtime.workQueues.waiting(DIGEST_QUEUE)).toEqual([]);
  });
});
