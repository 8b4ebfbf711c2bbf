import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ATTEMPT_RESERVE_MS,
  CONTENDED_WRITE_POLICY,
  isWriteCollision,
  LostRace,
  lostRace,
  retryContendedWrite,
  TooBusy,
} from '../../functions/lib/contended-writes';
import { Conflict, NotFound } from '../../functions/lib/errors';
import { withRemainingTime } from '../../functions/lib/invocation-time';

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const cancelled = (code: string) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${code}]`,
    $metadata: {},
    CancellationReasons: [{ Code: code }],
  });
/** As ElectroDB throws a refused single write: its own error, DynamoDB's as the cause. */
const wrapped = (cause: Error) =>
  Object.assign(new Error('Error thrown by DynamoDB client: conditional request failed'), { cause });
/** What an ElectroDB transaction cancelled by a collision resolves with. */
const cancelledResult = { canceled: true, data: [{ rejected: true, code: 'TransactionConflict' }] };

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** No pause between attempts (full jitter drawn at its lowest), so the policy's 14 attempts run at once. */
const withoutPauses = () => vi.spyOn(Math, 'random').mockReturnValue(0);

describe('what counts as a write collision', () => {
  it('is a refused condition, a cancelled transaction or a transaction conflict, also wrapped as a cause', () => {
    // Act + Assert
    expect(isWriteCollision(conditionFailed())).toBe(true);
    expect(isWriteCollision(wrapped(conditionFailed()))).toBe(true);
    expect(isWriteCollision(cancelled('TransactionConflict'))).toBe(true);
    expect(isWriteCollision(cancelled('ConditionalCheckFailed'))).toBe(true);
    expect(isWriteCollision(Object.assign(new Error('in flight'), { name: 'TransactionConflictException' }))).toBe(true);
  });

  it('is not any other error', () => {
    // Act + Assert
    expect(isWriteCollision(new Error('bug'))).toBe(false);
    expect(isWriteCollision(new NotFound('gone'))).toBe(false);
    expect(isWriteCollision(Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' }))).toBe(
      false,
    );
    expect(isWriteCollision(undefined)).toBe(false);
  });
});

describe('retryContendedWrite', () => {
  it('answers the first attempt that gets through, without pausing before it', async () => {
    // Prepare
    const attempt = vi.fn(async () => 'written');
    const pause = vi.spyOn(globalThis, 'setTimeout');

    // Act
    const result = await retryContendedWrite({ what: 'testing' }, attempt);

    // Assert
    expect(result).toBe('written');
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(attempt).toHaveBeenCalledWith(0);
    expect(pause).not.toHaveBeenCalled();
  });

  it('retries an attempt that lost a race, answered or thrown, numbering the attempts from 0', async () => {
    // Prepare
    withoutPauses();
    const outcomes: (() => unknown)[] = [
      () => lostRace(cancelledResult),
      () => {
        throw wrapped(conditionFailed());
      },
      () => {
        throw cancelled('TransactionConflict');
      },
      () => 'written',
    ];
    const attempt = vi.fn(async (n: number) => outcomes[n]?.() as string | LostRace);

    // Act
    const result = await retryContendedWrite({ what: 'testing' }, attempt);

    // Assert
    expect(result).toBe('written');
    expect(attempt.mock.calls.map(([n]) => n)).toEqual([0, 1, 2, 3]);
  });

  it('ends at once on any other error, with that error', async () => {
    // Prepare
    const refusal = new NotFound('There is no such story.');
    const attempt = vi.fn(async () => {
      throw refusal;
    });

    // Act
    const outcome = retryContendedWrite({ what: 'testing' }, attempt);

    // Assert
    await expect(outcome).rejects.toBe(refusal);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('gives up after the policy with TooBusy, a 503 whose cause is the last collision', async () => {
    // Prepare
    withoutPauses();
    const last = conditionFailed();
    const attempt = vi.fn(async (n: number) => {
      if (n === CONTENDED_WRITE_POLICY.attempts - 1) throw last;
      return lostRace(cancelledResult);
    });

    // Act
    const error = await retryContendedWrite({ what: 'liking this story' }, attempt).catch((caught: unknown) => caught);

    // Assert
    expect(attempt).toHaveBeenCalledTimes(CONTENDED_WRITE_POLICY.attempts);
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({
      name: 'TooBusy',
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('liking this story'),
    });
    expect((error as TooBusy).cause).toBe(last);
  });

  it('gives up with the lost race as cause, carrying what the attempt saw', async () => {
    // Prepare
    withoutPauses();

    // Act
    const error = await retryContendedWrite({ what: 'testing' }, async () => lostRace(cancelledResult)).catch(
      (caught: unknown) => caught,
    );

    // Assert
    const cause = (error as TooBusy).cause;
    expect(cause).toBeInstanceOf(LostRace);
    expect((cause as LostRace).cause).toBe(cancelledResult);
  });

  it("gives up with the caller's own error when it names one, the last collision as its cause", async () => {
    // Prepare
    withoutPauses();
    const last = conditionFailed();

    // Act
    const error = await retryContendedWrite(
      { what: 'testing', giveUp: (cause) => new Conflict('Changed elsewhere.', { cause }) },
      async () => {
        throw last;
      },
    ).catch((caught: unknown) => caught);

    // Assert
    expect(error).toBeInstanceOf(Conflict);
    expect(error).toMatchObject({ statusCode: 409, message: 'Changed elsewhere.', cause: last });
  });

  it('pauses before each retry for a random time in a range that doubles up to 2 s', async () => {
    // Prepare
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const pauses: number[] = [];
    const setTimer = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      pauses.push(Math.round(ms ?? 0));
      return setTimer(callback, ms);
    }) as typeof setTimeout);

    // Act
    const outcome = retryContendedWrite({ what: 'testing' }, async () => lostRace()).catch((caught: unknown) => caught);
    await vi.runAllTimersAsync();

    // Assert
    expect(await outcome).toBeInstanceOf(TooBusy);
    expect(pauses).toEqual([50, 100, 200, 400, 800, 1600, 2000, 2000, 2000, 2000, 2000, 2000, 2000]);
    expect(pauses.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(29_000);
  });

  it("gives up with TooBusy before the function's timeout, not after it, when the invocation has no time left for a retry", async () => {
    // Prepare: a route's invocation with 4 s left on a clock the test moves, and every attempt colliding
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const deadline = Date.now() + 4_000;
    const attempt = vi.fn(async () => lostRace());

    // Act
    const outcome = withRemainingTime(
      () => deadline - Date.now(),
      () => retryContendedWrite({ what: 'liking this story' }, attempt),
    ).catch((caught: unknown) => caught);
    await vi.runAllTimersAsync();

    // Assert: pauses of 50, 100, 200, 400 and 800 ms fit with the reserve; the next (1,600 ms) would not
    expect(await outcome).toBeInstanceOf(TooBusy);
    expect(attempt).toHaveBeenCalledTimes(6);
    expect(deadline - Date.now()).toBeGreaterThanOrEqual(ATTEMPT_RESERVE_MS);
  });

  it('still answers an attempt that gets through late in the invocation', async () => {
    // Prepare: 2 s left, the first attempt losing a race
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const attempt = vi.fn(async (n: number) => (n === 0 ? lostRace() : 'liked'));

    // Act
    const outcome = withRemainingTime(
      () => 2_000,
      () => retryContendedWrite({ what: 'testing' }, attempt),
    );
    await vi.runAllTimersAsync();

    // Assert
    await expect(outcome).resolves.toBe('liked');
    expect(attempt).toHaveBeenCalledTimes(2);
  });
});
