import { describe, expect, it } from 'vitest';
import { addMonths, archivePath, lastDayOfMonth, monthName } from '../../shared/archive-months';
import {
  computeMonthArchive,
  followersOverMonth,
  type FollowerYear,
  type MonthEntry,
  placementsOf,
  presenceOf,
} from '../../functions/ranking/lib/domain/month-archive';
import { archivableMonths } from '../../functions/ranking/lib/month-archive';

function entry(
  slug: string,
  options: Partial<MonthEntry> & { start?: number; end?: number; activeDays?: number; topics?: string[] },
): MonthEntry {
  return {
    slug,
    name: slug.toUpperCase(),
    url: `https://${slug}.example`,
    imageUrl: null,
    presence: { topics: options.topics ?? [], activeDays: options.activeDays ?? 0 },
    followers: options.end === undefined ? null : { start: options.start ?? options.end, end: options.end },
  };
}

describe('archive months', () => {
  it('steps across years and knows how long each month is', () => {
    expect(addMonths('2025-01', -1)).toBe('2024-12');
    expect(addMonths('2024-12', 1)).toBe('2025-01');
    expect(lastDayOfMonth('2024-02')).toBe('2024-02-29');
    expect(lastDayOfMonth('2025-04')).toBe('2025-04-30');
    expect(monthName('2025-05')).toBe('May 2025');
    expect(archivePath('2025-05', 'machine-learning')).toBe('/archive/2025/05?topic=machine-learning');
  });

  it('offers only closed months whose rank history is still kept, oldest first', () => {
    // Rank history of a month is kept 95 days past its end.
    expect(archivableMonths(new Date('2025-06-01T00:10:00Z'))).toEqual(['2025-02', '2025-03', '2025-04', '2025-05']);
    expect(archivableMonths(new Date('2025-06-20T00:00:00Z'))).toEqual(['2025-03', '2025-04', '2025-05']);
  });
});

describe('presenceOf', () => {
  it('counts the days on an active-only board and takes the topics of the last ranked day', () => {
    // Prepare: active on the 1st and 2nd, dormant on the 3rd, when it had left 'design'.
    const days = {
      '01': { 'followers.all': 4, 'followers.active': 2, 'followers.all.topic.design': 1 },
      '02': { 'followers.all': 4, 'followers.active': 2, 'followers.all.topic.ux': 1 },
      '03': { 'followers.all': 5, 'followers.all.topic.ux': 1, 'growth.all.topic.ux': 3 },
    };

    // Act
    const presence = presenceOf(days);

    // Assess
    expect(presence).toEqual({ topics: ['ux'], activeDays: 2 });
    expect(presenceOf({})).toBeNull();
  });
});

describe('followersOverMonth', () => {
  it('measures from the last count before the month to the last count in it, across a new year', () => {
    const years: FollowerYear[] = [
      { year: '2024', days: { '12-30': 100, '12-31': 110 } },
      { year: '2025', days: { '01-15': 150, '01-31': 170, '02-01': 400 } },
    ];
    expect(followersOverMonth(years, '2025-01')).toEqual({ start: 110, end: 170 });
  });

  it('measures a publication first counted during the month from its first count', () => {
    expect(followersOverMonth([{ year: '2025', days: { '05-20': 10, '05-25': 16 } }], '2025-05')).toEqual({ start: 10, end: 16 });
  });

  it('carries the last count when none was taken in the month, and knows nothing of a publication counted only later', () => {
    expect(followersOverMonth([{ year: '2025', days: { '04-28': 70 } }], '2025-05')).toEqual({ start: 70, end: 70 });
    expect(followersOverMonth([{ year: '2025', days: { '06-02': 70 } }], '2025-05')).toBeNull();
  });
});

describe('computeMonthArchive', () => {
  it('ranks the most followed, the fastest growing and the most active, overall and per topic', () => {
    // Prepare: a big steady UX publication, a small fast-growing one, a shrinking one, and a feed.
    const entries = [
      entry('big', { start: 1000, end: 1010, activeDays: 10, topics: ['ux'] }),
      entry('rising', { start: 50, end: 150, activeDays: 31, topics: ['ux', 'design'] }),
      entry('shrinking', { start: 600, end: 500, activeDays: 0, topics: ['design'] }),
      entry('feed', { activeDays: 31, topics: ['ux'] }),
    ];

    // Act
    const archive = computeMonthArchive('2025-05', entries);

    // Assess
    const slugs = (rows: { slug: string }[]) => rows.map((row) => row.slug);
    expect(slugs(archive.overall.boards.followers)).toEqual(['big', 'shrinking', 'rising']);
    // Only publications that gained followers are growing; the percentage is of the starting count.
    expect(archive.overall.boards.growth).toMatchObject([
      { slug: 'rising', gained: 100, growthPct: 200, rank: 1 },
      { slug: 'big', gained: 10, growthPct: 1, rank: 2 },
    ]);
    // Most days active first; a feed, whose followers are not known, after counted publications.
    expect(slugs(archive.overall.boards.activity)).toEqual(['rising', 'feed', 'big']);
    expect(archive.overall.publicationCount).toBe(4);
    expect(archive.topicList).toEqual([
      { tag: 'ux', name: 'UX', publicationCount: 3 },
      { tag: 'design', name: 'Design', publicationCount: 2 },
    ]);
    const design = archive.topics.find((scope) => scope.topic?.tag === 'design');
    expect(slugs(design?.boards.followers ?? [])).toEqual(['shrinking', 'rising']);
    expect(design?.boards.followers.map((row) => row.rank)).toEqual([1, 2]);
  });

  it('keeps only the top of each board', () => {
    const entries = Array.from({ length: 60 }, (_, index) => entry(`p${index}`, { start: 0, end: index + 1, activeDays: 1 }));
    const archive = computeMonthArchive('2025-05', entries, 50);
    expect(archive.overall.boards.followers).toHaveLength(50);
    expect(archive.overall.boards.followers.at(-1)).toMatchObject({ rank: 50, followers: 11 });
  });

  it("names each publication's places, overall first, and only those that made a board", () => {
    const archive = computeMonthArchive(
      '2025-05',
      [entry('a', { start: 10, end: 20, activeDays: 3, topics: ['ux'] }), entry('b', { start: 5, end: 5, topics: [] })],
      1,
    );

    const placements = placementsOf([archive.overall, ...archive.topics]);

    expect(placements.get('a')).toEqual([
      { topic: null, board: 'followers', rank: 1 },
      { topic: null, board: 'growth', rank: 1 },
      { topic: null, board: 'activity', rank: 1 },
      { topic: 'ux', board: 'followers', rank: 1 },
      { topic: 'ux', board: 'growth', rank: 1 },
      { topic: 'ux', board: 'activity', rank: 1 },
    ]);
    expect(placements.has('b')).toBe(false);
  });
});
