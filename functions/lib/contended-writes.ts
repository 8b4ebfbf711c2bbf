import { isConditionalCheckFailed } from './db/errors';
import { ServiceUnavailable } from './errors';
import { remainingTimeMs } from './invocation-time';

/**
 * Optimistic writes: read an item, write on condition that it is still what was read, and when
 * another write got there first (the condition failed, or the transaction collided with one in
 * flight: TransactionConflict), read again and try again. A popular story or person sees that
 * often. One policy for all of them: this many attempts, each retry after a random pause from a
 * range that doubles up to 2 s ("full jitter"), so colliding callers spread out instead of
 * colliding again. The longest possible wait, about 17 s, stays under API Gateway's 29 s.
 */
export const CONTENDED_WRITE_POLICY = { attempts: 14, basePauseMs: 25, maxPauseMs: 2_000 } as const;

/**
 * What a caller gets when every attempt collided: a 503 saying so (nothing was changed, and a
 * later try can succeed), not a generic server error. Its `cause` is the last collision: the
 * error a write threw, or what the attempt said about its race (a cancelled transaction's result).
 */
export class TooBusy extends ServiceUnavailable {
  constructor(what: string, options?: { cause?: unknown }) {
    super(`So many people are ${what} right now that yours did not get through. Nothing changed: please try again.`, options);
  }
}

/**
 * What an attempt and the answer after it may need of the invocation's time: a retry that would
 * start later than this before the function's timeout is not started, and the caller gets
 * TooBusy (a 503 saying nothing changed) instead of the generic 500 of a function stopped at its
 * timeout. Generous, as a loaded table answers slowly.
 */
export const ATTEMPT_RESERVE_MS = 1_500;

/** Before retry number `attempt` (1 for the first retry): a random pause in a range that doubles. */
function pauseBeforeRetry(attempt: number): number {
  const range = Math.min(CONTENDED_WRITE_POLICY.maxPauseMs, CONTENDED_WRITE_POLICY.basePauseMs * 2 ** attempt);
  return Math.random() * range;
}

/** Whether a retry after `pauseMs` still leaves the invocation time to write and answer. */
function timeForAnotherAttempt(pauseMs: number): boolean {
  const left = remainingTimeMs();
  return left === undefined || left >= pauseMs + ATTEMPT_RESERVE_MS;
}

/**
 * What an attempt answers (not throws) when it lost a race it can see, such as a cancelled
 * ElectroDB transaction: read again and retry. Its `cause` is what showed it (the transaction's result).
 */
export class LostRace extends Error {
  constructor(detail?: unknown) {
    super('Another write got there first', detail === undefined ? undefined : { cause: detail });
    this.name = 'LostRace';
  }
}

export const lostRace = (detail?: unknown) => new LostRace(detail);

const COLLISION_NAMES = new Set(['TransactionCanceledException', 'TransactionConflictException']);

/**
 * True when a thrown error means another write got there first, so reading again and retrying
 * can succeed: a single write's condition failed (ConditionalCheckFailedException, also as the
 * `cause` ElectroDB wraps it in), or a transaction sent without ElectroDB was cancelled or
 * collided with one in flight. Anything else (a bug, a refusal, the table out of reach) is not.
 */
export function isWriteCollision(error: unknown): boolean {
  if (isConditionalCheckFailed(error)) return true;
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { name, cause } = current as { name?: unknown; cause?: unknown };
    if (typeof name === 'string' && COLLISION_NAMES.has(name)) return true;
    current = cause;
  }
  return false;
}

/**
 * Retries taken and writes given up in this process since it started: what the hot-items bench
 * reads after driving one item hard (the local runtime runs every function in one process). In
 * AWS each function's process keeps its own and nothing reads it; two additions cost nothing.
 */
export const contendedWriteCounts = { retries: 0, givenUp: 0 };

export interface ContendedWriteOptions {
  /** What people are doing, for the TooBusy answer: "following this person". */
  what: string;
  /** The error to give up with instead of TooBusy (the last collision is its cause). */
  giveUp?: (cause: unknown) => Error;
}

/**
 * Runs one optimistic write under the policy: `attempt(n)` (n from 0) reads, writes, and answers
 * its result, or `lostRace()` when it lost a race; a write collision it throws (isWriteCollision)
 * counts as a lost race too, and any other error ends it at once. Retries pause first
 * (pauseBeforeRetry). When every attempt lost, or the invocation has no time left for another
 * (ATTEMPT_RESERVE_MS), it gives up with TooBusy (or `giveUp`'s error), whose cause is the last
 * collision.
 */
export async function retryContendedWrite<T>(
  options: ContendedWriteOptions,
  attempt: (attempt: number) => Promise<T | LostRace>,
): Promise<T> {
  let lastCollision: unknown;
  for (let number = 0; number < CONTENDED_WRITE_POLICY.attempts; number += 1) {
    if (number > 0) {
      const pauseMs = pauseBeforeRetry(number);
      if (!timeForAnotherAttempt(pauseMs)) break;
      contendedWriteCounts.retries += 1;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    try {
      const result = await attempt(number);
      if (!(result instanceof LostRace)) return result;
      lastCollision = result;
    } catch (error) {
      if (!isWriteCollision(error)) throw error;
      lastCollision = error;
    }
  }
  contendedWriteCounts.givenUp += 1;
  throw options.giveUp ? options.giveUp(lastCollision) : new TooBusy(options.what, { cause: lastCollision });
}
