import { describe, expect, it, vi } from 'vitest';
import { clearWhenTestEnds } from '../test/test-scoped';
import { ApiError } from './api-client';
import { createQueryClient, ERROR_RETRY_MS } from './query-client';

describe('createQueryClient', () => {
  it("uses the spec's error retry of 5000 ms, from its one constant", () => {
    // Assess
    expect(ERROR_RETRY_MS).toBe(5_000);
    expect(createQueryClient().getDefaultOptions().queries?.retryDelay).toBe(ERROR_RETRY_MS);
  });

  it('retries a failing server once, ERROR_RETRY_MS later, then shows its error', async () => {
    // Prepare
    vi.useFakeTimers();
    const queryClient = clearWhenTestEnds(createQueryClient());
    let calls = 0;

    // Act
    const failing = queryClient
      .fetchQuery({
        queryKey: ['failing'],
        queryFn: () => {
          calls += 1;
          throw new ApiError(503, 'Service Unavailable', { message: 'The database is busy.', code: 'UNAVAILABLE' });
        },
        retry: queryClient.getDefaultOptions().queries?.retry,
      })
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(ERROR_RETRY_MS - 1);
    const callsBeforeTheDelay = calls;
    await vi.advanceTimersByTimeAsync(1);

    // Assess
    expect(callsBeforeTheDelay).toBe(1);
    expect(calls).toBe(2);
    expect(await failing).toBeInstanceOf(ApiError);
  });

  it('shows a 4xx at once: asking again would not change it', async () => {
    // Prepare
    const queryClient = clearWhenTestEnds(createQueryClient());
    let calls = 0;

    // Act
    await queryClient
      .fetchQuery({
        queryKey: ['missing'],
        queryFn: () => {
          calls += 1;
          throw new ApiError(404, 'Not Found', { message: 'There is no topic called x.', code: 'NOT_FOUND' });
        },
        retry: queryClient.getDefaultOptions().queries?.retry,
      })
      .catch(() => undefined);

    // Assess
    expect(calls).toBe(1);
  });
});
