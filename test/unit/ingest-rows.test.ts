import { describe, expect, it } from 'vitest';
import type { PublicationSnapshot } from '../../shared/schemas/ranking';
import { applySnapshot, validateSnapshots } from '../../functions/ranking/lib/ingest';
import { NOT_OBSERVED } from '../../functions/ranking/lib/domain/recent-counts';
import { shardOf } from '../../functions/ranking/lib/domain/shard';

const NOW = new Date('2024-06-30T12:00:00.000Z');

function row(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: 'towards-data-science',
    name: 'Towards Data Science',
    url: 'https://towardsdatascience.com',
    followers: 1000,
    observedAt: '2024-06-30T06:00:00.000Z',
    topics: ['data-science'],
    ...overrides,
  };
}

function snapshot(overrides: Record<string, unknown> = {}): PublicationSnapshot {
  const { valid, rejected } = validateSnapshots([row(overrides)], NOW);
  expect(rejected).toEqual([]);
  return valid[0]!.snapshot;
}

describe('validateSnapshots', () => {
  it('keeps good rows and reports each bad one by index and field', () => {
    // Prepare
    const { slug: _omitted, ...withoutSlug } = row();
    const rows = [
      row({ slug: 'good-one' }),
      withoutSlug,
      row({ slug: 'negative', followers: -5 }),
      row({ slug: 'bad-url', url: 'not a url' }),
      row({ slug: 'extra', colour: 'blue' }),
      row({ slug: 'future', observedAt: '2024-07-01T12:00:00.000Z' }),
      row({ slug: 'good-two', url: 'http://example.com/blog' }),
    ];

    // Act
    const { valid, rejected } = validateSnapshots(rows, NOW);

    // Assess
    expect(valid.map(({ index, snapshot: kept }) => [index, kept.slug])).toEqual([
      [0, 'good-one'],
      [6, 'good-two'],
    ]);
    expect(rejected.map(({ index, slug, status }) => ({ index, slug, status }))).toEqual([
      { index: 1, slug: null, status: 'rejected' },
      { index: 2, slug: 'negative', status: 'rejected' },
      { index: 3, slug: 'bad-url', status: 'rejected' },
      { index: 4, slug: 'extra', status: 'rejected' },
      { index: 5, slug: 'future', status: 'rejected' },
    ]);
    const fieldsOf = (index: number) => rejected.find((result) => result.index === index)?.errors?.map((error) => error.field);
    expect(fieldsOf(1)).toEqual(['slug']);
    expect(fieldsOf(2)).toEqual(['followers']);
    expect(fieldsOf(3)).toEqual(['url']);
    expect(fieldsOf(4)).toEqual(['colour']);
    expect(fieldsOf(5)).toEqual(['observedAt']);
    for (const result of rejected) for (const error of result.errors ?? []) expect(error.message).not.toBe('');
  });

  it('names every bad field of one row', () => {
    // Act
    const { rejected } = validateSnapshots([row({ followers: 1.5, url: 'ftp://example.com', name: '' })], NOW);

    // Assess
    expect(rejected[0]?.errors?.map((error) => error.field).sort()).toEqual(['followers', 'name', 'url']);
  });

  it('accepts an observation a few seconds ahead of our clock', () => {
    // Act
    const { valid } = validateSnapshots([row({ observedAt: '2024-06-30T12:00:30.000Z' })], NOW);

    // Assess
    expect(valid).toHaveLength(1);
  });

  it('rejects a row that is not an object', () => {
    // Act
    const { valid, rejected } = validateSnapshots(['nope', null], NOW);

    // Assess
    expect(valid).toEqual([]);
    expect(rejected.map((result) => [result.index, result.slug])).toEqual([
      [0, null],
      [1, null],
    ]);
  });
});

describe('applySnapshot', () => {
  it('creates a new publication and its first history entry', () => {
    // Act
    const { publication, history } = applySnapshot(
      snapshot({ imageUrl: 'https://img.example.com/tds.png', latestPostAt: '2024-06-29T10:00:00Z' }),
      undefined,
      undefined,
      NOW,
    );

    // Assess
    expect(publication).toMatchObject({
      slug: 'towards-data-science',
      name: 'Towards Data Science',
      url: 'https://towardsdatascience.com',
      followers: 1000,
      followers7dAgo: 1000,
      followers30dAgo: 1000,
      topics: ['data-science'],
      imageUrl: 'https://img.example.com/tds.png',
      description: '',
      latestPostAt: '2024-06-29T10:00:00.000Z',
      firstSeenDay: '2024-06-30',
      recentEndDay: '2024-06-30',
      recentCounts: [1000],
      shard: shardOf('towards-data-science'),
      revision: 1,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    });
    expect(history).toEqual({
      slug: 'towards-data-science',
      year: '2024',
      days: { '06-30': 1000 },
      revision: 1,
      updatedAt: NOW.toISOString(),
    });
  });

  it('updates followers, the window and the history on the next day', () => {
    // Prepare
    const first = applySnapshot(snapshot({ observedAt: '2024-06-28T06:00:00Z' }), undefined, undefined, NOW);
    const later = new Date('2024-06-30T13:00:00.000Z');

    // Act
    const second = applySnapshot(snapshot({ followers: 1100 }), first.publication, first.history, later);

    // Assess
    expect(second.publication).toMatchObject({
      followers: 1100,
      recentEndDay: '2024-06-30',
      recentCounts: [1000, NOT_OBSERVED, 1100],
      followers30dAgo: 1000,
      firstSeenDay: '2024-06-28',
      revision: 2,
      createdAt: NOW.toISOString(),
      updatedAt: later.toISOString(),
    });
    expect(second.history?.days).toEqual({ '06-28': 1000, '06-30': 1100 });
    expect(second.history?.revision).toBe(2);
  });

  it('gives the same items when the same snapshot is applied twice, apart from timestamps and revision', () => {
    // Prepare
    const input = snapshot({ imageUrl: 'https://img.example.com/tds.png', description: 'Ideas' });
    const first = applySnapshot(input, undefined, undefined, NOW);

    // Act
    const again = applySnapshot(input, first.publication, first.history, new Date('2024-06-30T12:30:00.000Z'));

    // Assess
    const strip = <T extends { updatedAt: string; revision: number }>({ updatedAt: _u, revision: _r, ...rest }: T) => rest;
    expect(strip(again.publication)).toEqual(strip(first.publication));
    expect(again.history).toEqual({ ...first.history, revision: expect.any(Number), updatedAt: expect.any(String) });
  });

  it('does not let an older snapshot replace the current follower count or name', () => {
    // Prepare
    const current = applySnapshot(snapshot({ followers: 1200, name: 'TDS' }), undefined, undefined, NOW);

    // Act
    const late = applySnapshot(
      snapshot({ followers: 900, name: 'Old Name', observedAt: '2024-06-29T06:00:00Z' }),
      current.publication,
      current.history,
      NOW,
    );

    // Assess: the older day is recorded in history, the headline figures stay current.
    expect(late.publication.followers).toBe(1200);
    expect(late.publication.name).toBe('TDS');
    expect(late.publication.recentEndDay).toBe('2024-06-30');
    expect(late.publication.firstSeenDay).toBe('2024-06-29');
    expect(late.history?.days).toEqual({ '06-29': 900, '06-30': 1200 });
  });

  it('does not let an older snapshot replace the description, image or feed', () => {
    // Prepare
    const current = applySnapshot(
      snapshot({ description: 'Now', imageUrl: 'https://img.example.com/now.png', feedUrl: 'https://tds.example.com/feed' }),
      undefined,
      undefined,
      NOW,
    );

    // Act
    const late = applySnapshot(
      snapshot({ description: 'Back then', imageUrl: null, feedUrl: null, observedAt: '2024-06-29T06:00:00Z' }),
      current.publication,
      current.history,
      NOW,
    );

    // Assess
    expect(late.publication.description).toBe('Now');
    expect(late.publication.imageUrl).toBe('https://img.example.com/now.png');
    expect(late.publication.feedUrl).toBe('https://tds.example.com/feed');
  });

  it('keeps the newest latestPostAt instant even when sources use different offsets', () => {
    // Prepare: 09:00+02:00 is 07:00Z, earlier than 08:00Z although it sorts later as text.
    const existing = applySnapshot(snapshot({ latestPostAt: '2024-06-29T08:00:00Z' }), undefined, undefined, NOW);

    // Act
    const older = applySnapshot(
      snapshot({ latestPostAt: '2024-06-29T09:00:00+02:00' }),
      existing.publication,
      existing.history,
      NOW,
    );
    const newer = applySnapshot(
      snapshot({ latestPostAt: '2024-06-29T09:30:00-01:00' }),
      existing.publication,
      existing.history,
      NOW,
    );
    const missing = applySnapshot(snapshot({ latestPostAt: null }), existing.publication, existing.history, NOW);

    // Assess
    expect(older.publication.latestPostAt).toBe('2024-06-29T08:00:00.000Z');
    expect(newer.publication.latestPostAt).toBe('2024-06-29T10:30:00.000Z');
    expect(missing.publication.latestPostAt).toBe('2024-06-29T08:00:00.000Z');
  });

  it('clears imageUrl on null and keeps it when the field is left out', () => {
    // Prepare
    const existing = applySnapshot(
      snapshot({
        imageUrl: 'https://img.example.com/tds.png',
        feedUrl: 'https://towardsdatascience.com/feed',
        description: 'Ideas',
      }),
      undefined,
      undefined,
      NOW,
    );

    // Act
    const leftOut = applySnapshot(snapshot(), existing.publication, existing.history, NOW);
    const cleared = applySnapshot(snapshot({ imageUrl: null, feedUrl: null }), existing.publication, existing.history, NOW);

    // Assess
    expect(leftOut.publication.imageUrl).toBe('https://img.example.com/tds.png');
    expect(leftOut.publication.feedUrl).toBe('https://towardsdatascience.com/feed');
    expect(leftOut.publication.description).toBe('Ideas');
    expect(cleared.publication.imageUrl).toBeUndefined();
    expect(cleared.publication.feedUrl).toBeUndefined();
  });

  it('stores a feed that counts no followers as one whose followers are not known, with no history to write', () => {
    // Act
    const feed = applySnapshot(snapshot({ followers: null, latestPostAt: '2024-06-29T08:00:00Z' }), undefined, undefined, NOW);

    // Assess
    expect(feed.publication).toMatchObject({
      followersKnown: false,
      followers: 0,
      recentEndDay: '2024-06-30',
      recentCounts: [],
      latestPostAt: '2024-06-29T08:00:00.000Z',
    });
    expect(feed.history).toBeUndefined();
  });

  it('moves a feed on day by day without counts, and knows its followers from the first count on', () => {
    // Prepare
    const feed = applySnapshot(snapshot({ followers: null, observedAt: '2024-06-28T06:00:00Z' }), undefined, undefined, NOW);

    // Act
    const nextDay = applySnapshot(
      snapshot({ followers: null, observedAt: '2024-06-29T06:00:00Z' }),
      feed.publication,
      feed.history,
      NOW,
    );
    const counted = applySnapshot(snapshot({ followers: 40 }), nextDay.publication, nextDay.history, NOW);

    // Assess
    expect(nextDay.publication).toMatchObject({ followersKnown: false, recentEndDay: '2024-06-29', recentCounts: [] });
    expect(counted.publication).toMatchObject({ followersKnown: true, followers: 40, recentCounts: [40] });
    expect(counted.history?.days).toEqual({ '06-30': 40 });
  });

  it('keeps the last count of a counted publication when a snapshot brings none', () => {
    // Prepare
    const counted = applySnapshot(snapshot({ followers: 1000, observedAt: '2024-06-29T06:00:00Z' }), undefined, undefined, NOW);

    // Act
    const withoutCount = applySnapshot(snapshot({ followers: null }), counted.publication, counted.history, NOW);

    // Assess: the day is not observed, and the history is handed back unchanged.
    expect(withoutCount.publication).toMatchObject({
      followersKnown: true,
      followers: 1000,
      recentEndDay: '2024-06-30',
      recentCounts: [1000, NOT_OBSERVED],
    });
    expect(withoutCount.history).toBe(counted.history);
  });
});
