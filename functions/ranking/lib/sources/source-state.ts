import type { SourceStatus } from '../../../../shared/schemas/ranking';
import { HostBudgetSpent } from './polite-fetch';
import { SourceError, SourceGone, type SourceSnapshot } from './source-adapter';

/** A source failing this long, every attempt, is flagged for a superuser; it is never deleted. */
export const DAYS_FAILING_TO_FLAG = 7;
/** A source answering 404 or 410 this long leaves the boards; its history stays. */
export const DAYS_MISSING_TO_LEAVE = 7;

const DAY_MS = 24 * 3600 * 1000;

/** What one attempt to collect a source came to. */
export type CollectionOutcome =
  | { kind: 'collected'; snapshot: SourceSnapshot }
  /** Not tried, for a reason on our side (the host's budget for the day is spent): says nothing of the source. */
  | { kind: 'deferred'; reason: string }
  | { kind: 'failed'; reason: string; missing: boolean };

/** The part of a source record the collector's judgement changes. */
export interface SourceState {
  status: SourceStatus;
  lastCollectedAt?: string | undefined;
  lastAttemptAt?: string | undefined;
  failingSince?: string | undefined;
  goneSince?: string | undefined;
  lastError?: string | undefined;
}

/** An adapter's error as an outcome; anything that is not a SourceError is a bug and is thrown on. */
export function outcomeOfError(error: unknown): CollectionOutcome {
  if (error instanceof HostBudgetSpent) return { kind: 'deferred', reason: error.message };
  if (error instanceof SourceError) return { kind: 'failed', reason: error.message, missing: error instanceof SourceGone };
  throw error;
}

const daysSince = (iso: string, now: Date) => (now.getTime() - Date.parse(iso)) / DAY_MS;

/**
 * The source's state after an attempt. A success clears both streaks. A failure starts or
 * continues the failure streak; a 404 or 410 also the missing streak, which another kind of
 * failure (a timeout says nothing either way) does not end. A week of failures flags it, a
 * week missing makes it gone, until a success brings it back.
 */
export function nextSourceState(previous: SourceState, outcome: CollectionOutcome, now: Date): SourceState {
  const at = now.toISOString();
  if (outcome.kind === 'deferred') return previous;
  if (outcome.kind === 'collected') {
    return {
      status: 'active',
      lastCollectedAt: at,
      lastAttemptAt: at,
      failingSince: undefined,
      goneSince: undefined,
      lastError: undefined,
    };
  }
  const failingSince = previous.failingSince ?? at;
  const goneSince = outcome.missing ? (previous.goneSince ?? at) : previous.goneSince;
  const status: SourceStatus =
    goneSince !== undefined && outcome.missing && daysSince(goneSince, now) >= DAYS_MISSING_TO_LEAVE
      ? 'gone'
      : daysSince(failingSince, now) >= DAYS_FAILING_TO_FLAG
        ? 'flagged'
        : 'failing';
  return {
    status,
    lastCollectedAt: previous.lastCollectedAt,
    lastAttemptAt: at,
    failingSince,
    goneSince,
    lastError: outcome.reason,
  };
}
