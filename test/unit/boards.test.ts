import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boardId, MAX_LEADER_IMAGE_URL, rankColumns, topicCounts, topicName } from '../../functions/ranking/lib/domain/boards';
import { decodeChunk, encodeChunk } from '../../functions/ranking/lib/domain/chunk-codec';
import { byActivity, byFollowers, byGrowth, type Standing } from '../../functions/ranking/lib/domain/standing';
import { StandingColumns } from '../../functions/ranking/lib/domain/standing-columns';
import { standingFixture } from '../support/fixtures';

/** The boards of a few standings, as standings: rankColumns read back through the positions it answers. */
function rankBoards(standings: readonly Standing[]) {
  const { boards, topics } = rankColumns(StandingColumns.of(standings));
  const rows = new Map<string, Standing[]>();
  for (const [id, indexes] of boards)
    rows.set(
      id,
      Array.from(indexes, (index) => standings[index] as Standing),
    );
  return { boards: rows, topics };
}

const standing = standingFixture;

// big: most followers, slow growth; rocket: fewer followers, fastest growth; sleepy: dormant.
const STANDINGS: Standing[] = [
  standing('rocket', { followers: 2_000, gained30d: 900, growthPct30d: 81.8, topics: ['ai', 'startups'] }),
  standing('sleepy', { followers: 50_000, gained30d: 5, growthPct30d: 0.01, isActive: false, topics: ['ai'] }),
  standing('big', { followers: 10_000, gained30d: 100, growthPct30d: 1, topics: ['startups'] }),
  standing('tiny', { followers: 10, gained30d: 1, growthPct30d: 10, topics: ['ai'] }),
];

const slugs = (rows: Standing[] | undefined) => rows?.map((row) => row.slug);

describe('boardId', () => {
  it('names global and topic boards', () => {
    expect(boardId({ kind: 'followers', activeOnly: false, topic: null })).toBe('followers.all');
    expect(boardId({ kind: 'growth', activeOnly: true, topic: null })).toBe('growth.active');
    expect(boardId({ kind: 'followers', activeOnly: true, topic: 'machine-learning' })).toBe(
      'followers.active.topic.machine-learning',
    );
    expect(boardId({ kind: 'growth', activeOnly: false, topic: 'ai' })).toBe('growth.all.topic.ai');
  });
});

describe('topicName', () => {
  it('turns a tag into words with capitals', () => {
    expect(topicName('machine-learning')).toBe('Machine Learning');
    expect(topicName('ai')).toBe('AI');
    expect(topicName('ux-design')).toBe('UX Design');
    expect(topicName('web-3-0')).toBe('Web 3 0');
  });
});

describe('rankBoards', () => {
  it('orders the all-time follower and growth boards', () => {
    // Act
    const { boards } = rankBoards(STANDINGS);

    // Assess
    expect(slugs(boards.get('followers.all'))).toEqual(['sleepy', 'big', 'rocket', 'tiny']);
    expect(slugs(boards.get('growth.all'))).toEqual(['rocket', 'big', 'sleepy', 'tiny']);
  });

  it('keeps dormant publications on all-time boards and leaves them out of active ones', () => {
    // Act
    const { boards } = rankBoards(STANDINGS);

    // Assess
    expect(slugs(boards.get('followers.active'))).toEqual(['big', 'rocket', 'tiny']);
    expect(slugs(boards.get('growth.active'))).toEqual(['rocket', 'big', 'tiny']);
    expect(slugs(boards.get('followers.all.topic.ai'))).toContain('sleepy');
    expect(slugs(boards.get('followers.active.topic.ai'))).not.toContain('sleepy');
  });

  it('gives topic boards the global order, filtered to the topic', () => {
    // Act
    const { boards } = rankBoards(STANDINGS);

    // Assess
    expect(slugs(boards.get('followers.all.topic.ai'))).toEqual(['sleepy', 'rocket', 'tiny']);
    expect(slugs(boards.get('growth.all.topic.ai'))).toEqual(['rocket', 'sleepy', 'tiny']);
    expect(slugs(boards.get('followers.active.topic.ai'))).toEqual(['rocket', 'tiny']);
    expect(slugs(boards.get('followers.all.topic.startups'))).toEqual(['big', 'rocket']);
    expect(slugs(boards.get('growth.active.topic.startups'))).toEqual(['rocket', 'big']);
  });

  it('builds exactly the global boards and one per topic, kind and filter', () => {
    // Act
    const { boards } = rankBoards(STANDINGS);

    // Assess
    const kinds = ['followers', 'growth', 'activity'];
    const scopes = ['', '.topic.ai', '.topic.startups'];
    expect([...boards.keys()].sort()).toEqual(
      kinds.flatMap((kind) => scopes.flatMap((scope) => [`${kind}.all${scope}`, `${kind}.active${scope}`])).sort(),
    );
  });

  it('orders the activity boards newest post first, those that never posted last, ties by followers', () => {
    // Prepare
    const standings = [
      standing('weekly', { followers: 10, latestPostAt: '2026-11-20T08:00:00.000Z', topics: ['ai'] }),
      standing('daily', { followers: 5, latestPostAt: '2026-11-25T08:00:00.000Z', topics: ['ai'] }),
      standing('silent', { followers: 99_999, latestPostAt: null, isActive: false }),
      standing('also-daily', { followers: 50, latestPostAt: '2026-11-25T08:00:00.000Z' }),
      standing('dormant', { followers: 7, latestPostAt: '2026-08-01T08:00:00.000Z', isActive: false, topics: ['ai'] }),
    ];

    // Act
    const { boards } = rankBoards(standings);

    // Assess
    expect(slugs(boards.get('activity.all'))).toEqual(['also-daily', 'daily', 'weekly', 'dormant', 'silent']);
    expect(slugs(boards.get('activity.active'))).toEqual(['also-daily', 'daily', 'weekly']);
    expect(slugs(boards.get('activity.all.topic.ai'))).toEqual(['daily', 'weekly', 'dormant']);
  });

  it('ranks a publication whose followers are not known (a feed) on the activity boards only, topics included', () => {
    // Prepare
    const feed = standing('a-feed', {
      followersKnown: false,
      followers: 0,
      latestPostAt: '2026-11-26T08:00:00.000Z',
      topics: ['ai'],
    });

    // Act
    const { boards, topics } = rankBoards([...STANDINGS, feed]);

    // Assess
    const boardsWithFeed = [...boards].flatMap(([id, rows]) => (rows.some((row) => row.slug === 'a-feed') ? [id] : []));
    expect(boardsWithFeed.sort()).toEqual([
      'activity.active',
      'activity.active.topic.ai',
      'activity.all',
      'activity.all.topic.ai',
    ]);
    expect(slugs(boards.get('activity.all'))?.[0]).toBe('a-feed');
    expect(topics.find((topic) => topic.tag === 'ai')).toMatchObject({ publicationCount: 4, activeCount: 3 });
    expect(topics.find((topic) => topic.tag === 'ai')?.leaders.map((leader) => leader.slug)).not.toContain('a-feed');
  });

  it('has empty active boards when every publication is dormant', () => {
    // Act
    const { boards } = rankBoards([standing('old', { isActive: false })]);

    // Assess
    expect(boards.get('followers.active')).toEqual([]);
    expect(boards.get('growth.active')).toEqual([]);
    expect(boards.get('activity.active')).toEqual([]);
    expect(slugs(boards.get('followers.all'))).toEqual(['old']);
  });

  it('does not reorder the standings it was given', () => {
    // Prepare
    const input = [...STANDINGS];

    // Act
    rankBoards(input);

    // Assess
    expect(slugs(input)).toEqual(slugs(STANDINGS));
  });

  it('counts each topic and orders topics by total followers', () => {
    // Act
    const { topics } = rankBoards(STANDINGS);

    // Assess
    expect(topics.map(topicCounts)).toEqual([
      { tag: 'ai', name: 'AI', publicationCount: 3, activeCount: 2, totalFollowers: 52_010 },
      { tag: 'startups', name: 'Startups', publicationCount: 2, activeCount: 2, totalFollowers: 12_000 },
    ]);
  });

  it("names each topic's most followed publications, dormant ones included, at most three", () => {
    // Prepare
    const many = [
      ...STANDINGS,
      standing('fifth', { followers: 5_000, topics: ['ai'], imageUrl: 'https://cdn.example.com/5.png' }),
    ];

    // Act
    const { topics } = rankBoards(many);

    // Assess
    expect(topics.find((topic) => topic.tag === 'ai')?.leaders).toEqual([
      { slug: 'sleepy', name: 'SLEEPY', followers: 50_000, imageUrl: null },
      { slug: 'fifth', name: 'FIFTH', followers: 5_000, imageUrl: 'https://cdn.example.com/5.png' },
      { slug: 'rocket', name: 'ROCKET', followers: 2_000, imageUrl: null },
    ]);
    expect(topics.find((topic) => topic.tag === 'startups')?.leaders.map((leader) => leader.slug)).toEqual(['big', 'rocket']);
  });

  it('leaves out a leader image URL too long to keep in the manifest', () => {
    // Prepare
    const long = `https://cdn.example.com/${'x'.repeat(MAX_LEADER_IMAGE_URL)}.png`;

    // Act
    const { topics } = rankBoards([standing('heavy', { topics: ['ai'], imageUrl: long })]);

    // Assess
    expect(topics[0]?.leaders).toEqual([{ slug: 'heavy', name: 'HEAVY', followers: 1000, imageUrl: null }]);
  });

  it('gives no topics when no publication has one', () => {
    expect(rankBoards([standing('plain', {})]).topics).toEqual([]);
  });

  it('puts on each board exactly the publications it holds, in its order, whatever order they came in', () => {
    // Prepare: the boards as plain filters and sorts of the standings, which the columns must match.
    const kinds = [
      { kind: 'followers', order: byFollowers, counted: true },
      { kind: 'growth', order: byGrowth, counted: true },
      { kind: 'activity', order: byActivity, counted: false },
    ] as const;
    const expectedBoards = (standings: Standing[]) => {
      const expected = new Map<string, string[]>();
      for (const { kind, order, counted } of kinds)
        for (const topic of [null, 'ai', 'ux', 'go'])
          for (const activeOnly of [false, true]) {
            const rows = standings
              .filter((row) => (!counted || row.followersKnown) && (!activeOnly || row.isActive))
              .filter((row) => topic === null || row.topics.includes(topic))
              .sort(order)
              .map((row) => row.slug);
            if (topic === null || rows.length > 0) expected.set(boardId({ kind, activeOnly, topic }), rows);
          }
      return expected;
    };
    const standingArbitrary = fc.record({
      followers: fc.integer({ min: 0, max: 50 }),
      gained30d: fc.integer({ min: -5, max: 5 }),
      growthPct30d: fc.option(fc.constantFrom(-1.5, 0, 2.25, 10), { nil: null }),
      latestPostAt: fc.option(fc.constantFrom('2026-11-01T08:00:00.000Z', '2026-11-20T08:00:00.000Z'), { nil: null }),
      isActive: fc.boolean(),
      followersKnown: fc.boolean(),
      topics: fc.uniqueArray(fc.constantFrom('ai', 'ux', 'go'), { maxLength: 3 }),
    });

    fc.assert(
      fc.property(fc.array(standingArbitrary, { maxLength: 25 }), (drawn) => {
        const standings = drawn.map((overrides, index) => standing(`pub-${index}`, overrides));

        // Act
        const { boards } = rankBoards(standings);

        // Assess
        const actual = new Map([...boards].map(([id, rows]) => [id, rows.map((row) => row.slug)]));
        expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expectedBoards(standings)));
      }),
    );
  });
});

describe('chunk codec', () => {
  it('gives back the rows it encoded', () => {
    // Prepare
    const rows = STANDINGS.map((row, index) => ({ rank: index + 1, ...row, name: `${row.name} — ünïcödé "quoted"` }));

    // Act
    const payload = encodeChunk(rows.map((row) => JSON.stringify(row)));
    const decoded = decodeChunk<(typeof rows)[number]>(payload);

    // Assess
    expect(decoded).toEqual(rows);
    expect(payload).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it('round-trips an empty chunk', () => {
    expect(decodeChunk(encodeChunk([]))).toEqual([]);
  });

  it('is smaller than the JSON it holds for a full chunk', () => {
    // Prepare
    const rows = Array.from({ length: 100 }, (_, index) => JSON.stringify(standing(`pub-${index}`, { followers: index })));

    // Act
    const payload = encodeChunk(rows);

    // Assess
    expect(payload.length).toBeLessThan(rows.join(',').length / 2);
  });
});
