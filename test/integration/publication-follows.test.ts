import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import type { RankedPublication } from '../../shared/schemas/ranking';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';

/** Enough for a top 100 and ranks below it. */
const suite = apiSuite({ seedPublications: 150 });

const follow = (as: SignedInUser, slug: string, status: 'on' | 'off') =>
  suite.api.call(routes.followPublication, { params: { slug, status }, as });

async function boardRow(rank: number): Promise<RankedPublication> {
  const page = await suite.api.call(routes.loadPubs, { query: { from: rank - 1, limit: 1 } });
  expectOk(page);
  return page.body.items[0] as RankedPublication;
}

describe('following publications', () => {
  it('follows and unfollows, counts followers exactly, and lists what the caller follows', async () => {
    // Prepare
    const [ana, bo] = await Promise.all([suite.api.signIn('ana'), suite.api.signIn('bo')]);
    const [first, second] = await Promise.all([boardRow(1), boardRow(2)]);

    // Act
    const followed = await follow(ana, first.slug, 'on');
    const repeated = await follow(ana, first.slug, 'on');
    await follow(bo, first.slug, 'on');
    await follow(ana, second.slug, 'on');
    const listed = await suite.api.call(routes.listFollowedPublications, { as: ana });
    const unfollowed = await follow(bo, first.slug, 'off');
    const unfollowedAgain = await follow(bo, first.slug, 'off');
    const bosList = await suite.api.call(routes.listFollowedPublications, { as: bo });

    // Assess
    expectOk(followed);
    expect(followed.body).toEqual({ slug: first.slug, following: true, followerCount: 1 });
    expectOk(repeated);
    expect(repeated.body.followerCount).toBe(1);
    expectOk(listed);
    expect(listed.body.items.map(({ slug, ranks }) => ({ slug, rank: ranks.followers }))).toEqual([
      { slug: second.slug, rank: 2 },
      { slug: first.slug, rank: 1 },
    ]);
    expect(listed.body.items[1]).toMatchObject({ name: first.name, followers: first.followers, isActive: first.isActive });
    expectOk(unfollowed);
    expect(unfollowed.body).toEqual({ slug: first.slug, following: false, followerCount: 1 });
    expectOk(unfollowedAgain);
    expect(unfollowedAgain.body.followerCount).toBe(1);
    expectOk(bosList);
    expect(bosList.body.items).toEqual([]);
  });

  it('refuses an unknown publication, a bad status, and a visitor', async () => {
    // Prepare
    const cy = await suite.api.signIn('cy');
    const row = await boardRow(3);

    // Act
    const unknown = await follow(cy, 'no-such-publication', 'on');
    const badStatus = await suite.api.call(routes.followPublication, {
      params: { slug: row.slug, status: 'maybe' as 'on' },
      as: cy,
    });
    const visitor = await suite.api.call(routes.followPublication, { params: { slug: row.slug, status: 'on' } });
    const visitorList = await suite.api.call(routes.listFollowedPublications, {});

    // Assess
    expectError(unknown, 404);
    expectError(badStatus, 400);
    expectError(visitor, 401);
    expectError(visitorList, 401);
  });

  it("tells followers when a publication enters a board's top 100, once per run", async () => {
    // Prepare: di follows #40; the job's first look only remembers, then we pretend it was #150.
    const di = await suite.api.signIn('di');
    const target = await boardRow(40);
    expectOk(await follow(di, target.slug, 'on'));
    await suite.runtime.runJob('rank-publications');
    await getDb()
      .entities.publicationWatch.patch({ slug: target.slug })
      .set({ lastRanks: { 'followers.all': 150 }, baselines: { 'followers.all': 150 }, runId: 'an-older-run' })
      .go();

    // Act: the job queues the news; the fan-out queue's consumer tells the followers.
    await suite.runtime.runJob('rank-publications');
    await suite.runtime.runJob('rank-publications');
    await suite.runtime.queuesSettled();
    const notifications = await suite.api.call(routes.listUnseenNotifications, { as: di, query: {} });

    // Assess
    expectOk(notifications);
    expect(notifications.body.items).toEqual([
      expect.objectContaining({
        kind: 'publication-rose',
        object: {
          type: 'publication',
          id: target.slug,
          title: target.name,
          detail: 'entered the top 100 of Most followed at #40',
        },
        actors: [],
      }),
    ]);

    // Act: fresher news while the first is unseen (it fell back to #160, then climbed again)
    await getDb()
      .entities.publicationWatch.patch({ slug: target.slug })
      .set({ lastRanks: { 'followers.all': 60 }, baselines: { 'followers.all': 60 }, runId: 'another-older-run' })
      .go();
    await suite.runtime.runJob('rank-publications');
    await suite.runtime.queuesSettled();
    const updated = await suite.api.call(routes.listUnseenNotifications, { as: di, query: {} });
    const counts = await suite.api.call(routes.countUnseenNotifications, { as: di });

    // Assess: the same notification says the latest, and is still counted once
    expectOk(updated);
    expect(updated.body.items.map((item) => item.object.detail)).toEqual(['climbed 20 places to #40 on Most followed']);
    expectOk(counts);
    expect(counts.body.numUnseenNotifications).toBe(1);
  });
});

describe('the weekly digest', () => {
  it('mails each follower with the digest on the week of what they follow, once a week', async () => {
    // Prepare: eve follows two publications; fay follows one but turned the digest off.
    const [eve, fay] = await Promise.all([suite.api.signIn('eve'), suite.api.signIn('fay')]);
    const [first, tenth] = await Promise.all([boardRow(1), boardRow(10)]);
    expectOk(await follow(eve, first.slug, 'on'));
    expectOk(await follow(eve, tenth.slug, 'on'));
    expectOk(await follow(fay, first.slug, 'on'));
    expectOk(
      await suite.api.call(routes.updateEmailPreferences, {
        body: { productUpdates: true, weeklyDigest: false, notificationEmails: true },
        as: fay,
      }),
    );

    // Act: the job queues its readers; the notification-fanout consumer mails them
    await suite.runtime.runJob('send-publication-digest');
    await suite.runtime.queuesSettled();
    await suite.runtime.runJob('send-publication-digest');
    await suite.runtime.queuesSettled();

    // Assess
    const evesMail = await mailsTo(suite.runtime.mailDir, eve.email);
    expect(evesMail).toHaveLength(1);
    expect(evesMail[0]?.headers.subject).toBe('Your publications this week on TopPubs');
    const text = evesMail[0]?.text ?? '';
    expect(text).toContain(`${first.name}: ${first.followers.toLocaleString('en-US')} followers (`);
    expect(text).toContain(`#1 most followed`);
    expect(text).toContain(`${tenth.name}: `);
    expect(text).toContain(`/pub/${first.slug}`);
    expect(await mailsTo(suite.runtime.mailDir, fay.email)).toHaveLength(0);
  });
});
