import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hotScore, rankHot } from '../../shared/stories/hot-score';

const hoursAgo = (now: Date, hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

describe('hotScore', () => {
  it('grows with likes and decays with age', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.double({ min: 0, max: 10_000, noNaN: true }), (likes, age) => {
        expect(hotScore(likes + 1, age)).toBeGreaterThan(hotScore(likes, age));
        expect(hotScore(likes, age + 1)).toBeLessThan(hotScore(likes, age));
      }),
    );
  });

  it('gives a story nobody has liked yet a score above zero', () => {
    // Act
    const score = hotScore(0, 0);

    // Assess
    expect(score).toBeGreaterThan(0);
  });
});

describe('rankHot', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('puts a fast riser above an older story with more likes', () => {
    // Prepare: 30 likes in 3 hours against 60 likes over two days
    const stories = [
      { storyId: 'old-favourite', likeCount: 60, createdAt: hoursAgo(now, 48) },
      { storyId: 'riser', likeCount: 30, createdAt: hoursAgo(now, 3) },
    ];

    // Act
    const ranked = rankHot(stories, now);

    // Assess
    expect(ranked).toEqual(['riser', 'old-favourite']);
  });

  it('ranks the newest first among stories nobody has liked, and keeps at most the asked size', () => {
    // Prepare
    const stories = [
      { storyId: 'a', likeCount: 0, createdAt: '2026-11-24T10:00:00.000Z' },
      { storyId: 'b', likeCount: 0, createdAt: '2026-11-24T10:00:00.000Z' },
      { storyId: 'newer', likeCount: 0, createdAt: '2026-11-24T11:00:00.000Z' },
    ];

    // Act
    const ranked = rankHot(stories, now, 2);

    // Assess
    expect(ranked).toHaveLength(2);
    expect(ranked[0]).toBe('newer');
  });
});
