import { describe, expect, it } from 'vitest';
import { rankColumns } from '../../functions/ranking/lib/domain/boards';
import {
  boardRanksOf,
  compareBoards,
  decodeMonth,
  encodeMonth,
  monthOfSlug,
  parseBoardId,
  withDayOfRanks,
} from '../../functions/ranking/lib/domain/rank-history';
import type { Standing } from '../../functions/ranking/lib/domain/standing';
import { StandingColumns } from '../../functions/ranking/lib/domain/standing-columns';
import { standingFixture } from '../support/fixtures';

/** Every publication's ranks, by slug, as the job records them. */
function ranksBySlug(standings: Standing[], chosen: (slug: string) => boolean = () => true) {
  const columns = StandingColumns.of(standings);
  const ranks = boardRanksOf(rankColumns(columns).boards, columns.followersKnown, (index) =>
    chosen(columns.slugs[index] as string),
  );
  return new Map([...ranks].map(([index, boardRanks]) => [columns.slugs[index], boardRanks]));
}

describe('boardRanksOf', () => {
  it('gives each publication its rank on exactly the boards it is on', () => {
    // Prepare: an active UX publication, and a bigger dormant one without topics.
    const active = standingFixture('active-ux', {
      followers: 500,
      gained30d: 90,
      isActive: true,
      latestPostAt: '2026-11-25T08:00:00.000Z',
      topics: ['ux'],
    });
    const dormant = standingFixture('dormant', { followers: 900, gained30d: 10, isActive: false, topics: [] });

    // Act
    const ranks = ranksBySlug([active, dormant]);

    // Assess
    expect(ranks.get('active-ux')).toEqual({
      'followers.all': 2,
      'followers.active': 1,
      'followers.all.topic.ux': 1,
      'followers.active.topic.ux': 1,
      'growth.all': 1,
      'growth.active': 1,
      'growth.all.topic.ux': 1,
      'growth.active.topic.ux': 1,
    });
    expect(ranks.get('dormant')).toEqual({ 'followers.all': 1, 'growth.all': 2 });
  });

  it('keeps ranks by recency only for a publication ranked on activity alone', () => {
    // Prepare: a counted publication that posted yesterday, and a feed that posted today.
    const counted = standingFixture('counted', { latestPostAt: '2026-11-25T08:00:00.000Z', topics: ['ux'] });
    const feed = standingFixture('a-feed', {
      followersKnown: false,
      followers: 0,
      latestPostAt: '2026-11-26T08:00:00.000Z',
      topics: ['ux'],
    });

    // Act
    const ranks = ranksBySlug([counted, feed]);

    // Assess
    expect(ranks.get('a-feed')).toEqual({
      'activity.all': 1,
      'activity.active': 1,
      'activity.all.topic.ux': 1,
      'activity.active.topic.ux': 1,
    });
    expect(Object.keys(ranks.get('counted') ?? {}).filter((boardId) => boardId.startsWith('activity.'))).toEqual([]);
  });

  it('gives the chosen publications their ranks among everyone, and leaves the others out', () => {
    // Prepare: three publications on one topic; the job asks for one bucket's worth at a time.
    const standings = [
      standingFixture('first', { followers: 300, topics: ['ux'] }),
      standingFixture('second', { followers: 200, topics: ['ux'] }),
      standingFixture('third', { followers: 100, topics: ['ux'] }),
    ];

    // Act
    const ranks = ranksBySlug(standings, (slug) => slug === 'third');

    // Assess: its ranks are its places on the whole boards, and no one else is in the answer.
    expect([...ranks.keys()]).toEqual(['third']);
    expect(ranks.get('third')).toMatchObject({ 'followers.all': 3, 'followers.all.topic.ux': 3 });
    expect(ranks.get('third')).toEqual(ranksBySlug(standings).get('third'));
  });
});

describe('parseBoardId', () => {
  it('reads every kind of board id and refuses anything else', () => {
    // Act & Assess
    expect(parseBoardId('followers.all')).toEqual({ kind: 'followers', activeOnly: false, topic: null });
    expect(parseBoardId('growth.active.topic.machine-learning')).toEqual({
      kind: 'growth',
      activeOnly: true,
      topic: 'machine-learning',
    });
    expect(parseBoardId('activity.all.topic.ux')).toEqual({ kind: 'activity', activeOnly: false, topic: 'ux' });
    expect(parseBoardId('search')).toBeNull();
    expect(parseBoardId('followers.sometimes')).toBeNull();
  });
});

describe('compareBoards', () => {
  it('lists overall boards, then active only, then topics; most followed, fastest growing, then recently active', () => {
    // Prepare
    const ids = [
      'activity.all',
      'growth.all.topic.ux',
      'growth.active',
      'followers.all.topic.ai',
      'growth.all',
      'followers.active',
      'followers.all',
    ];

    // Act
    const sorted = ids.map((id) => ({ id, board: parseBoardId(id)! })).sort((a, b) => compareBoards(a.board, b.board));

    // Assess
    expect(sorted.map(({ id }) => id)).toEqual([
      'followers.all',
      'growth.all',
      'activity.all',
      'followers.active',
      'growth.active',
      'followers.all.topic.ai',
      'growth.all.topic.ux',
    ]);
  });
});

describe('a month of ranks in storage', () => {
  it('gives back every publication, and picks out one without mistaking a day for a slug', () => {
    // Prepare: a publication whose slug looks like a day of the month.
    const month = {
      '01': { '05': { 'followers.all': 3 }, '06': { 'followers.all': 2 } },
      'ux-collective': { '01': { 'followers.all': 12, 'growth.all.topic.ux': 1 } },
    };

    // Act
    const payload = encodeMonth(month);

    // Assess
    expect(decodeMonth(payload)).toEqual(month);
    expect(monthOfSlug(payload, '01')).toEqual(month['01']);
    expect(monthOfSlug(payload, 'ux-collective')).toEqual(month['ux-collective']);
    expect(monthOfSlug(payload, 'ux')).toBeUndefined();
  });
});

describe('withDayOfRanks', () => {
  it('sets one day of the publications ranked, keeping their other days and everyone else as stored', () => {
    // Prepare: a bucket's month with two publications, and a run that ranks one of them and a newcomer.
    const stored = encodeMonth({
      'ux-collective': { '05': { 'followers.all': 12 }, '06': { 'followers.all': 11 } },
      'gone-quiet': { '05': { 'followers.all': 40 } },
    });

    // Act
    const payload = withDayOfRanks(stored, '07', [
      ['ux-collective', { 'followers.all': 9, 'growth.all': 3 }],
      ['newcomer', { 'followers.all': 80 }],
    ]);

    // Assess: the same bytes as the month decoded, given the day and encoded whole.
    expect(decodeMonth(payload)).toEqual({
      'ux-collective': {
        '05': { 'followers.all': 12 },
        '06': { 'followers.all': 11 },
        '07': { 'followers.all': 9, 'growth.all': 3 },
      },
      'gone-quiet': { '05': { 'followers.all': 40 } },
      newcomer: { '07': { 'followers.all': 80 } },
    });
    expect(payload).toBe(encodeMonth(decodeMonth(payload)));
  });

  it('replaces a day a run already set, so a day keeps the ranks of its last run', () => {
    // Prepare
    const first = withDayOfRanks(undefined, '07', [['ux-collective', { 'followers.all': 9 }]]);

    // Act
    const second = withDayOfRanks(first, '07', [['ux-collective', { 'followers.all': 8 }]]);

    // Assess
    expect(decodeMonth(second)).toEqual({ 'ux-collective': { '07': { 'followers.all': 8 } } });
  });
});
