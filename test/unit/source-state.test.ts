import { describe, expect, it } from 'vitest';
import { HostBudgetSpent } from '../../functions/ranking/lib/sources/polite-fetch';
import {
  SourceGone,
  SourceRateLimited,
  type SourceSnapshot,
  SourceUnreadable,
} from '../../functions/ranking/lib/sources/source-adapter';
import {
  type CollectionOutcome,
  DAYS_FAILING_TO_FLAG,
  DAYS_MISSING_TO_LEAVE,
  nextSourceState,
  outcomeOfError,
  type SourceState,
} from '../../functions/ranking/lib/sources/source-state';

const START = new Date('2026-11-01T03:00:00.000Z');
const dayAfterStart = (days: number) => new Date(START.getTime() + days * 24 * 3600 * 1000);

const snapshot: SourceSnapshot = {
  platform: 'medium',
  canonicalId: 'medium:abc',
  name: 'The Pub',
  url: 'https://medium.com/the-pub',
  description: null,
  imageUrl: null,
  topics: [],
  followers: 120,
  latestPostAt: null,
  feedUrl: null,
};

const collected: CollectionOutcome = { kind: 'collected', snapshot };
const missing = outcomeOfError(new SourceGone('https://medium.com/the-pub', 404));
const timedOut = outcomeOfError(new SourceUnreadable('https://medium.com/the-pub answered a login page'));

/** The state after one attempt a day, from START, with these outcomes. */
function daily(outcomes: readonly CollectionOutcome[], from: SourceState = { status: 'active' }): SourceState {
  return outcomes.reduce((state, outcome, day) => nextSourceState(state, outcome, dayAfterStart(day)), from);
}

describe('a source after each collection', () => {
  it('is active after a success, with when it was collected, and a success clears any failure', () => {
    // Act
    const state = daily([missing, timedOut, collected]);

    // Assess
    expect(state).toEqual({
      status: 'active',
      lastCollectedAt: dayAfterStart(2).toISOString(),
      lastAttemptAt: dayAfterStart(2).toISOString(),
      failingSince: undefined,
      goneSince: undefined,
      lastError: undefined,
    });
  });

  it(`is failing from its first failure and flagged after ${DAYS_FAILING_TO_FLAG} days of them, never deleted`, () => {
    // Act
    const failures = Array.from({ length: DAYS_FAILING_TO_FLAG + 1 }, () => timedOut);
    const dayBefore = daily([collected, ...failures.slice(0, DAYS_FAILING_TO_FLAG)]);
    const weekLater = daily([collected, ...failures]);

    // Assess
    expect(dayBefore.status).toBe('failing');
    expect(weekLater).toMatchObject({
      status: 'flagged',
      failingSince: dayAfterStart(1).toISOString(),
      lastCollectedAt: dayAfterStart(0).toISOString(),
      lastError: 'https://medium.com/the-pub answered a login page',
    });
  });

  it(`is gone after ${DAYS_MISSING_TO_LEAVE} days of 404 or 410, which a timeout in between does not interrupt`, () => {
    // Act
    const sixDays = daily([missing, missing, timedOut, missing, missing, missing, missing]);
    const sevenDays = daily([missing, missing, timedOut, missing, missing, missing, missing, missing]);

    // Assess
    expect(sixDays.status).toBe('failing');
    expect(sevenDays).toMatchObject({ status: 'gone', goneSince: START.toISOString() });
  });

  it('is not gone when a week of failures was not all 404s: it is flagged instead', () => {
    // Act
    const state = daily([timedOut, timedOut, timedOut, timedOut, timedOut, timedOut, timedOut, missing]);

    // Assess
    expect(state).toMatchObject({ status: 'flagged', goneSince: dayAfterStart(7).toISOString() });
  });

  it('comes back from gone with its first success', () => {
    // Act
    const state = daily([...Array.from({ length: 8 }, () => missing), collected]);

    // Assess
    expect(state.status).toBe('active');
  });

  it('does not count a day our own budget for the host was spent: that says nothing of the source', () => {
    // Prepare
    const deferred = outcomeOfError(new HostBudgetSpent('medium.com'));
    const before = daily([timedOut]);

    // Act
    const after = nextSourceState(before, deferred, dayAfterStart(DAYS_FAILING_TO_FLAG + 1));

    // Assess
    expect(deferred.kind).toBe('deferred');
    expect(after).toBe(before);
  });

  it("counts a platform's own rate limit as a failure, and throws on anything that is not a source error", () => {
    // Act
    const limited = outcomeOfError(new SourceRateLimited('https://medium.com/the-pub', 60));

    // Assess
    expect(limited).toMatchObject({ kind: 'failed', missing: false });
    expect(() => outcomeOfError(new TypeError('a bug'))).toThrow(TypeError);
  });
});
