import { describe, expect, it } from 'vitest';
import { describeClimbs, detectClimbs, type WatchState } from '../../functions/ranking/lib/domain/climbs';

const names: Record<string, string> = {
  'followers.all': 'Most followed',
  'growth.all': 'Fastest growing',
  'followers.all.topic.ux': 'Most followed · UX',
};
const nameOf = (boardId: string) => names[boardId] ?? boardId;

const state = (lastRanks: Record<string, number>, overrides: Partial<WatchState> = {}): WatchState => ({
  lastRanks,
  baselines: lastRanks,
  wasActive: true,
  ...overrides,
});

describe('detectClimbs', () => {
  it('only remembers on the first look: following is not news', () => {
    // Act
    const { events, next } = detectClimbs(undefined, { ranks: { 'followers.all': 5 }, isActive: true });

    // Assess
    expect(events).toEqual([]);
    expect(next).toEqual(state({ 'followers.all': 5 }));
  });

  it('tells when a publication enters a top 100, not when it was already in it', () => {
    // Act
    const entering = detectClimbs(state({ 'followers.all': 104 }), { ranks: { 'followers.all': 99 }, isActive: true });
    const inside = detectClimbs(state({ 'followers.all': 100 }), { ranks: { 'followers.all': 95 }, isActive: true });

    // Assess
    expect(entering.events).toEqual([{ type: 'entered-top', boardId: 'followers.all', rank: 99 }]);
    expect(inside.events).toEqual([]);
  });

  it('tells a climb of 10 places from the lowest point since the last one told, then measures from there', () => {
    // Prepare: 300, fell to 320, then climbed step by step.
    let watch = state({ 'growth.all': 300 });
    const steps = [320, 315, 311, 310, 305, 300];
    const told: unknown[] = [];

    // Act
    for (const rank of steps) {
      const result = detectClimbs(watch, { ranks: { 'growth.all': rank }, isActive: true });
      told.push(...result.events);
      watch = result.next;
    }

    // Assess: 320 -> 310 is told; 310 -> 300 is told again once it reaches 10 more.
    expect(told).toEqual([
      { type: 'climbed', boardId: 'growth.all', from: 320, to: 310 },
      { type: 'climbed', boardId: 'growth.all', from: 310, to: 300 },
    ]);
  });

  it('never tells a climb on an activity board: a new post puts any publication at its top', () => {
    // Act
    const { events, next } = detectClimbs(state({ 'activity.all': 900 }), { ranks: { 'activity.all': 1 }, isActive: true });

    // Assess
    expect(events).toEqual([]);
    expect(next.lastRanks).toEqual({ 'activity.all': 1 });
  });

  it('tells a dormant publication that posts again, once', () => {
    // Act
    const woke = detectClimbs(state({ 'followers.all': 500 }, { wasActive: false }), {
      ranks: { 'followers.all': 500 },
      isActive: true,
    });
    const again = detectClimbs(woke.next, { ranks: { 'followers.all': 500 }, isActive: true });

    // Assess
    expect(woke.events).toEqual([{ type: 'active-again' }]);
    expect(again.events).toEqual([]);
  });
});

describe('describeClimbs', () => {
  it('leads with the biggest board and counts the rest', () => {
    // Act
    const text = describeClimbs(
      [
        { type: 'climbed', boardId: 'followers.all.topic.ux', from: 30, to: 12 },
        { type: 'climbed', boardId: 'followers.all', from: 160, to: 140 },
        { type: 'entered-top', boardId: 'growth.all', rank: 87 },
      ],
      nameOf,
    );

    // Assess
    expect(text).toBe('climbed 20 places to #140 on Most followed, and rose on 2 more boards');
  });

  it('puts a top 100 before a climb on the same kind of board, and says when it is active again', () => {
    // Act & Assess
    expect(describeClimbs([{ type: 'entered-top', boardId: 'followers.all', rank: 99 }], nameOf)).toBe(
      'entered the top 100 of Most followed at #99',
    );
    expect(describeClimbs([{ type: 'active-again' }], nameOf)).toBe('is active again: it has a new post');
    expect(describeClimbs([{ type: 'active-again' }, { type: 'climbed', boardId: 'growth.all', from: 50, to: 38 }], nameOf)).toBe(
      'is active again and climbed 12 places to #38 on Fastest growing',
    );
    expect(describeClimbs([], nameOf)).toBeNull();
  });
});
