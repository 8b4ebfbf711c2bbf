import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_ID_HEADER } from '../../shared/constants';
import { routes } from '../../shared/routes';
import { type ApiClient, type AppCredentials, createApiClient, expectError, expectOk, invalid } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let api: ApiClient;
let bot: AppCredentials;

function snapshot(overrides: Record<string, unknown> = {}) {
  return {
    slug: 'the-new-gazette',
    name: 'The New Gazette',
    url: 'https://gazette.example.com/',
    followers: 2_500_000,
    latestPostAt: new Date().toISOString(),
    topics: ['technology'],
    observedAt: new Date().toISOString(),
    ...overrides,
  };
}

const ingest = (snapshots: unknown[], as: AppCredentials = bot) => api.call(routes.ingestSnapshots, { body: { snapshots }, as });

beforeAll(async () => {
  // No demo data: the boards hold exactly what this suite ingests.
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
  // The runtime set this process's configuration, so the app lands in the same table.
  bot = await api.registerApp('ingest_bot');
});

afterAll(async () => {
  await runtime?.close();
});

describe('publication snapshot ingestion', () => {
  it('refuses anonymous callers and wrong app tokens', async () => {
    // Act
    const anonymous = await api.call(routes.ingestSnapshots, { body: { snapshots: [snapshot()] } });
    const wrongToken = await ingest([snapshot()], { ...bot, appToken: 'guessed' });

    // Assess
    expectError(anonymous, 401);
    expectError(wrongToken, 401);
    expect(wrongToken.body).toEqual({
      message: 'The app id and app token do not match a registered app.',
      code: 'UNAUTHORIZED',
    });
  });

  it('stores the good rows of a batch and reports the bad ones by index', async () => {
    // Act
    const answer = await ingest([
      snapshot(),
      { ...snapshot({ slug: 'Bad Slug' }) },
      snapshot({ slug: 'second-new', followers: -3 }),
      snapshot({ slug: 'second-new', name: 'Second New', followers: 1_000 }),
    ]);

    // Assess
    expectOk(answer);
    const result = answer.body;
    expect(result.stored).toBe(2);
    expect(result.rejected).toBe(2);
    expect(result.results.map((row) => [row.index, row.status])).toEqual([
      [0, 'created'],
      [1, 'rejected'],
      [2, 'rejected'],
      [3, 'created'],
    ]);
    expect(result.results[1]?.errors?.map((error) => error.field)).toEqual(['slug']);
    expect(result.results[2]?.errors?.map((error) => error.field)).toEqual(['followers']);
  });

  it('is idempotent per publication and day', async () => {
    // Prepare
    const row = snapshot({ slug: 'steady-weekly', name: 'Steady Weekly', followers: 900 });
    await ingest([row]);

    // Act
    const again = await ingest([row]);

    // Assess
    expectOk(again);
    expect(again.body.results[0]?.status).toBe('unchanged');
  });

  it('keeps both of two simultaneous batches for one publication (the loser re-reads and retries)', async () => {
    // Prepare
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString();
    const batch = (offset: number, followers: number) => [
      snapshot({ slug: 'racing-review', name: 'Racing Review', followers, observedAt: day(offset), latestPostAt: day(40) }),
    ];

    // Act
    const answers = await Promise.all([ingest(batch(2, 700)), ingest(batch(1, 750))]);
    await runtime.runJob('rank-publications');
    const detail = await api.call(routes.getPublication, { params: { slug: 'racing-review' } });

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expectOk(detail);
    expect(detail.body.history.map((point) => point.followers)).toEqual([700, 750]);
  });

  it('puts an ingested publication on the boards at the next ranking run', async () => {
    // Act
    await runtime.runJob('rank-publications');
    const board = await api.call(routes.loadPubs, { query: { limit: 1 } });
    const search = await api.call(routes.searchPubs, { query: { q: 'gazette' } });
    const detail = await api.call(routes.getPublication, { params: { slug: 'the-new-gazette' } });

    // Assess
    expectOk(board);
    expectOk(search);
    expect(board.body.items[0]?.slug).toBe('the-new-gazette');
    expect(search.body.items.map((item) => item.slug)).toContain('the-new-gazette');
    expectOk(detail);
  });

  it('answers malformed input with a clear 4xx and stores nothing', async () => {
    // Act
    const malformed = await api.call(routes.ingestSnapshots, { rawBody: '{"snapshots": [', as: bot });
    const noAppId = await api.call(routes.ingestSnapshots, { rawBody: '{}', headers: { [APPLICATION_ID_HEADER]: undefined } });
    const tooMany = await ingest(Array.from({ length: 501 }, () => snapshot()));
    const unknownField = await api.call(routes.ingestSnapshots, {
      body: invalid({ snapshots: [snapshot()], dryRun: true }),
      as: bot,
    });

    // Assess
    expectError(malformed, 400);
    expect(malformed.body).toEqual({ message: 'The request body is not valid JSON.', code: 'BAD_REQUEST' });
    expectError(noAppId, 403);
    expectError(tooMany, 400);
    expect(tooMany.text).toContain('at most 500 snapshots');
    expectError(unknownField, 400);
    expect(unknownField.body).toMatchObject({ fields: [{ in: 'body', field: 'dryRun', message: 'Unknown field' }] });
  });
});
