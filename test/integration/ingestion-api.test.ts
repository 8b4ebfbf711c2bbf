import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAppClient } from '../../functions/lib/app-auth';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const INGEST = '/api/i/toppubs/admin/snapshots';
const APP_ID = 'ingest_bot';
let runtime: TestRuntime;
let appHeaders: Record<string, string>;

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

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 400 });
  // The runtime set this process's configuration, so the app lands in the same table.
  const token = await registerAppClient(APP_ID, 'Ingestion bot');
  appHeaders = { 'x-application-id': APP_ID, 'x-app-token': token };
});

afterAll(async () => {
  await runtime?.close();
});

describe('publication snapshot ingestion', () => {
  it('refuses anonymous callers and wrong app tokens', async () => {
    // Act
    const anonymous = await runtime.post(INGEST, { snapshots: [snapshot()] });
    const wrongToken = await runtime.post(INGEST, { snapshots: [snapshot()] }, { ...appHeaders, 'x-app-token': 'guessed' });

    // Assess
    expect(anonymous.status).toBe(401);
    expect(wrongToken.status).toBe(401);
    expect(await wrongToken.json()).toEqual({
      message: 'The app id and app token do not match a registered app.',
      code: 'UNAUTHORIZED',
    });
  });

  it('stores the good rows of a batch and reports the bad ones by index', async () => {
    // Act
    const response = await runtime.post(
      INGEST,
      {
        snapshots: [
          snapshot(),
          { ...snapshot({ slug: 'Bad Slug' }) },
          snapshot({ slug: 'second-new', followers: -3 }),
          snapshot({ slug: 'second-new', name: 'Second New', followers: 1_000 }),
        ],
      },
      appHeaders,
    );
    const result = (await response.json()) as {
      stored: number;
      rejected: number;
      results: { index: number; status: string; errors?: { field: string }[] }[];
    };

    // Assess
    expect(response.status).toBe(200);
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
    await runtime.post(INGEST, { snapshots: [row] }, appHeaders);

    // Act
    const again = await runtime.post(INGEST, { snapshots: [row] }, appHeaders);

    // Assess
    expect(((await again.json()) as { results: { status: string }[] }).results[0]?.status).toBe('unchanged');
  });

  it('keeps both of two simultaneous batches for one publication (the loser re-reads and retries)', async () => {
    // Prepare
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString();
    const batch = (offset: number, followers: number) => ({
      snapshots: [
        snapshot({ slug: 'racing-review', name: 'Racing Review', followers, observedAt: day(offset), latestPostAt: day(40) }),
      ],
    });

    // Act
    const answers = await Promise.all([
      runtime.post(INGEST, batch(2, 700), appHeaders),
      runtime.post(INGEST, batch(1, 750), appHeaders),
    ]);
    await runtime.runJob('rank-publications');
    const detail = (await (await runtime.get('/api/i/toppubs/pub/racing-review')).json()) as { history: { followers: number }[] };

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(detail.history.map((point) => point.followers)).toEqual([700, 750]);
  });

  it('puts an ingested publication on the boards at the next ranking run', async () => {
    // Act
    await runtime.runJob('rank-publications');
    const board = (await (await runtime.get('/api/i/toppubs/load/pubs?limit=1')).json()) as { items: { slug: string }[] };
    const search = (await (await runtime.get('/api/i/toppubs/search?q=gazette')).json()) as { items: { slug: string }[] };
    const detail = await runtime.get('/api/i/toppubs/pub/the-new-gazette');

    // Assess
    expect(board.items[0]?.slug).toBe('the-new-gazette');
    expect(search.items.map((item) => item.slug)).toContain('the-new-gazette');
    expect(detail.status).toBe(200);
  });

  it('answers malformed input with a clear 4xx and stores nothing', async () => {
    // Act
    const malformed = await runtime.post(INGEST, '{"snapshots": [', appHeaders);
    const noAppId = await fetch(`${runtime.url}${INGEST}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const tooMany = await runtime.post(INGEST, { snapshots: Array.from({ length: 501 }, () => snapshot()) }, appHeaders);
    const unknownField = await runtime.post(INGEST, { snapshots: [snapshot()], dryRun: true }, appHeaders);

    // Assess
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'BAD_REQUEST' });
    expect(noAppId.status).toBe(403);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toContain('at most 500 snapshots');
    expect(unknownField.status).toBe(400);
    expect(await unknownField.json()).toMatchObject({ fields: [{ in: 'body', field: 'dryRun', message: 'Unknown field' }] });
  });
});
