import { describe, expect, it } from 'vitest';
import { clearWhenTestEnds } from '../test/test-scoped';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';

describe('createQueryClient', () => {
  it('retries a failing server once, a second later, so its error shows within about two seconds', async () => {
    // Prepare
    const queryClient = clearWhenTestEnds(createQueryClient());
    let calls = 0;
    const started = Date.now();

    // Act
    const failed = await queryClient
      .fetchQuery({
        queryKey: ['failing'],
        queryFn: () => {
          calls += 1;
          throw new ApiError(503, 'Service Unavailable', { message: 'The database is busy.', code: 'UNAVAILABLE' });
        },
        retry: queryClient.getDefaultOptions().queries?.retry,
      })
      .catch((error: unknown) => error);

    // Assess
    expect(failed).toBeInstanceOf(ApiError);
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(2_500);
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
