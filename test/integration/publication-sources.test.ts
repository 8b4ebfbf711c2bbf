import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../functions/lib/db/service';
import { addSource, previewSource, UnrecognisedAddress } from '../../functions/ranking/lib/sources/add-source';
import { readAllPublications } from '../../functions/ranking/lib/ranking-run';
import { collectSource, collectSources } from '../../functions/ranking/lib/sources/collect-source';
import { type SourceFetch, SourceGone } from '../../functions/ranking/lib/sources/source-adapter';
import { RobotsUnreachable } from '../../functions/ranking/lib/sources/polite-fetch';
import { DAYS_MISSING_TO_LEAVE } from '../../functions/ranking/lib/sources/source-state';
import { createTestTable } from '../support/dynamo';
import { fixtureFetch, sourceFixture } from '../support/source-fetch';

const DAY_MS = 24 * 3600 * 1000;
const NOW = new Date('2026-11-20T04:00:00.000Z');
const dayAfter = (days: number) => new Date(NOW.getTime() + days * DAY_MS);
const UX_COLLECTIVE = {
  'https://medium.com/ux-collective?format=json': { body: sourceFixture('medium-ux-collective.json.txt') },
  'https://uxdesign.cc/feed': { body: sourceFixture('medium-feed.xml') },
};

let db: Db;

beforeAll(async () => {
  ({ db } = await createTestTable());
});

async function sourceOf(canonicalId: string) {
  const { data } = await db.entities.publicationSource.get({ canonicalId }).go();
  if (!data) throw new Error(`No source ${canonicalId}`);
  return data;
}

describe('adding a publication from its address', () => {
  it('previews it, then stores it under a slug of its own with its first snapshot, ready for the boards', async () => {
    // Prepare
    const { fetch } = fixtureFetch(UX_COLLECTIVE);

    // Act
    const preview = await previewSource('https://medium.com/ux-collective/some-story-1a2b?source=home', fetch, NOW);
    const added = await addSource(db, preview, 'user-1', NOW);

    // Assess
    expect(preview.snapshot).toMatchObject({ canonicalId: 'medium:e8dd6b4e5a3f', name: 'UX Collective', followers: 478213 });
    expect(added.kind).toBe('added');
    expect(added.source).toMatchObject({
      slug: 'ux-collective',
      platform: 'medium',
      sourceUrl: 'https://medium.com/ux-collective',
      status: 'active',
      addedBy: 'user-1',
      lastCollectedAt: NOW.toISOString(),
    });
    const { data: publication } = await db.entities.publication.get({ slug: 'ux-collective' }).go();
    expect(publication).toMatchObject({
      name: 'UX Collective',
      url: 'https://uxdesign.cc/',
      followers: 478213,
      topics: ['ux', 'design', 'user-experience'],
    });
  });

  it('knows a renamed publication by its canonical id: the same source and slug, nothing new stored', async () => {
    // Prepare
    const { fetch } = fixtureFetch({
      'https://medium.com/uxcollective?format=json': { body: sourceFixture('medium-renamed.json.txt') },
      'https://medium.com/feed/uxcollective': { body: sourceFixture('medium-feed.xml') },
    });

    // Act
    const added = await addSource(db, await previewSource('https://medium.com/uxcollective', fetch, NOW), 'user-2', NOW);

    // Assess
    expect(added.kind).toBe('known');
    expect(added.source).toMatchObject({ slug: 'ux-collective', addedBy: 'user-1' });
    const { data } = await db.entities.publicationSource.query.bySlug({ slug: 'uxcollective' }).go();
    expect(data).toEqual([]);
  });

  it('says so for an address no adapter reads, and for one the platform does not know', async () => {
    // Prepare
    const { fetch } = fixtureFetch({});

    // Act
    const notAnAddress = previewSource('not a url', fetch, NOW);
    const unknown = previewSource('https://medium.com/no-such-publication', fetch, NOW);

    // Assess
    await expect(notAnAddress).rejects.toBeInstanceOf(UnrecognisedAddress);
    await expect(unknown).rejects.toBeInstanceOf(SourceGone);
  });
});

describe('collecting a source', () => {
  it('stores the new follower count through the ingestion path and follows a rename to its new address', async () => {
    // Prepare: the publication moved to medium.com/uxcollective; its old address redirects there.
    const source = await sourceOf('medium:e8dd6b4e5a3f');
    const { fetch } = fixtureFetch({
      'https://medium.com/ux-collective?format=json': {
        body: sourceFixture('medium-renamed.json.txt'),
        url: 'https://medium.com/uxcollective?format=json',
      },
      'https://medium.com/feed/uxcollective': { body: sourceFixture('medium-feed.xml') },
    });
    const later = dayAfter(1);

    // Act
    const collected = await collectSource(db, source, fetch, later);

    // Assess
    expect(collected).toEqual({
      canonicalId: 'medium:e8dd6b4e5a3f',
      slug: 'ux-collective',
      outcome: 'collected',
      status: 'active',
    });
    expect(await sourceOf('medium:e8dd6b4e5a3f')).toMatchObject({
      sourceUrl: 'https://medium.com/uxcollective',
      followers: 478990,
      lastCollectedAt: later.toISOString(),
    });
    const { data: publication } = await db.entities.publication.get({ slug: 'ux-collective' }).go();
    expect(publication).toMatchObject({ name: 'UX Collective (renamed)', followers: 478990 });
  });

  it(`marks a source gone after ${DAYS_MISSING_TO_LEAVE} days of 404s, and keeps its publication and history`, async () => {
    // Prepare
    const { fetch } = fixtureFetch({});
    const statuses: string[] = [];

    // Act
    for (let day = 2; day <= DAYS_MISSING_TO_LEAVE + 2; day += 1) {
      const collected = await collectSource(db, await sourceOf('medium:e8dd6b4e5a3f'), fetch, dayAfter(day));
      statuses.push(collected.status);
    }

    // Assess
    expect(statuses.at(0)).toBe('failing');
    expect(statuses.at(-2)).toBe('failing');
    expect(statuses.at(-1)).toBe('gone');
    expect(await sourceOf('medium:e8dd6b4e5a3f')).toMatchObject({
      status: 'gone',
      lastError: 'https://medium.com/uxcollective?format=json was not found (HTTP 404)',
      followers: 478990,
    });
    const { data: publication } = await db.entities.publication.get({ slug: 'ux-collective' }).go();
    expect(publication).toMatchObject({ followers: 478990, offBoardsSince: dayAfter(DAYS_MISSING_TO_LEAVE + 2).toISOString() });
    expect((await readAllPublications(db)).map((row) => row.slug)).not.toContain('ux-collective');
    const { data: history } = await db.entities.followerHistory.query.bySlugAndYear({ slug: 'ux-collective' }).go();
    expect(history).not.toEqual([]);
  });

  it('brings a gone publication back to the boards with its next snapshot, however unchanged', async () => {
    // Prepare
    const { fetch } = fixtureFetch({
      'https://medium.com/uxcollective?format=json': { body: sourceFixture('medium-renamed.json.txt') },
      'https://medium.com/feed/uxcollective': { body: sourceFixture('medium-feed.xml') },
    });

    // Act
    const collected = await collectSource(db, await sourceOf('medium:e8dd6b4e5a3f'), fetch, dayAfter(10));

    // Assess
    expect(collected.status).toBe('active');
    expect((await readAllPublications(db)).map((row) => row.slug)).toContain('ux-collective');
  });

  it('refuses to merge: an address that now leads to another publication is a failure of this one', async () => {
    // Prepare
    const source = await sourceOf('medium:e8dd6b4e5a3f');
    const { fetch } = fixtureFetch({
      'https://medium.com/uxcollective?format=json': {
        body: sourceFixture('medium-renamed.json.txt').replace('"e8dd6b4e5a3f"', '"0123456789ab"'),
      },
      'https://medium.com/feed/uxcollective': { body: sourceFixture('medium-feed.xml') },
    });

    // Act
    const collected = await collectSource(db, source, fetch, dayAfter(20));

    // Assess
    expect(collected.outcome).toBe('failed');
    expect((await sourceOf('medium:e8dd6b4e5a3f')).lastError).toBe(
      'https://medium.com/uxcollective now leads to another publication (medium:0123456789ab)',
    );
  });
});

describe('collecting a batch of sources', () => {
  it('collects each source of the batch, records a failure on its source without stopping the others, and skips unknown ids', async () => {
    // Prepare: a WordPress.com blog added today; the Medium publication answers nothing any more.
    const site = 'https://public-api.wordpress.com/rest/v1.1/sites/fieldnotesontea.wordpress.com';
    const { fetch } = fixtureFetch({
      [`${site}?fields=ID,name,description,URL,icon,subscribers_count,is_private`]: {
        body: sourceFixture('wordpress-site.json'),
      },
      [`${site}/posts?number=1&fields=date`]: { body: sourceFixture('wordpress-posts.json') },
    });
    const blog = await addSource(db, await previewSource('https://fieldnotesontea.wordpress.com/', fetch, NOW), 'import', NOW);
    const later = dayAfter(30);

    // Act
    const report = await collectSources(
      db,
      ['wordpress.com:113402758', 'medium:e8dd6b4e5a3f', 'medium:no-such-id'],
      fetch,
      later,
    );

    // Assess
    expect(blog.source.slug).toBe('field-notes-on-tea');
    expect(report).toMatchObject({ collected: 1, failed: 1, deferred: 0, unknown: ['medium:no-such-id'] });
    expect(await sourceOf('wordpress.com:113402758')).toMatchObject({ status: 'active', lastCollectedAt: later.toISOString() });
    expect((await sourceOf('medium:e8dd6b4e5a3f')).lastAttemptAt).toBe(later.toISOString());
    const { data: publication } = await db.entities.publication.get({ slug: 'field-notes-on-tea' }).go();
    expect(publication).toMatchObject({ name: 'Field Notes on Tea', followers: 18342 });
  });
});

describe('collecting a batch offline, and twice', () => {
  /** What the SSRF-safe fetcher throws when the machine has no DNS: no answer at all. */
  const noNetwork: SourceFetch = async (url) => {
    const lookupFailed = Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(url).hostname}`), { code: 'ENOTFOUND' });
    throw new RobotsUnreachable(new URL(url).host, { cause: new TypeError('fetch failed', { cause: lookupFailed }) });
  };

  it('skips a source attempted after its batch was planned, so a message delivered twice reads nothing again', async () => {
    // Prepare: Field Notes on Tea was collected 30 days after NOW (the batch test above).
    const { fetch, calls } = fixtureFetch({});
    const plannedAt = dayAfter(29);

    // Act
    const report = await collectSources(db, ['wordpress.com:113402758'], fetch, dayAfter(31), { notAttemptedSince: plannedAt });

    // Assess
    expect(report).toMatchObject({ collected: 0, failed: 0, skipped: 1 });
    expect(calls).toEqual([]);
  });

  it('starts no source it may not finish before the time left runs out, and names the ones it did not reach', async () => {
    // Prepare: a minute left for the first source (the blog of the batch test), then only 10 s (under the 15 s kept in hand).
    const site = 'https://public-api.wordpress.com/rest/v1.1/sites/fieldnotesontea.wordpress.com';
    const { fetch, calls } = fixtureFetch({
      [`${site}?fields=ID,name,description,URL,icon,subscribers_count,is_private`]: {
        body: sourceFixture('wordpress-site.json'),
      },
      [`${site}/posts?number=1&fields=date`]: { body: sourceFixture('wordpress-posts.json') },
    });
    const timeLeft = [60_000, 10_000];

    // Act
    const report = await collectSources(db, ['wordpress.com:113402758', 'medium:e8dd6b4e5a3f'], fetch, dayAfter(31), {
      timeLeftMs: () => timeLeft.shift() ?? 0,
    });

    // Assess
    expect(report).toMatchObject({ collected: 1, failed: 0, notReached: ['medium:e8dd6b4e5a3f'] });
    expect(calls.map((call) => call.url)).toEqual([
      `${site}?fields=ID,name,description,URL,icon,subscribers_count,is_private`,
      `${site}/posts?number=1&fields=date`,
    ]);
  });

  it('without a network (npm start, no fixture web) defers every source instead of starting a failure streak', async () => {
    // Prepare
    const before = await sourceOf('wordpress.com:113402758');

    // Act
    const offline = await collectSources(db, ['wordpress.com:113402758'], noNetwork, dayAfter(32), { offline: true });
    const online = await collectSources(db, ['wordpress.com:113402758'], noNetwork, dayAfter(33));

    // Assess: offline, nothing about the source changed; in production the same failure counts.
    expect(offline).toMatchObject({ collected: 0, failed: 0, deferred: 1 });
    expect(online).toMatchObject({ collected: 0, failed: 1, deferred: 0 });
    const after = await sourceOf('wordpress.com:113402758');
    expect(after).toMatchObject({ status: 'failing', failingSince: dayAfter(33).toISOString() });
    expect(before.failingSince).toBeUndefined();
  });
});
