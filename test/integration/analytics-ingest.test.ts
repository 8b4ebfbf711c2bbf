import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import type { StoredAnalyticsEvent } from '../../shared/schemas/analytics';
import { INGEST_REQUESTS_PER_MINUTE, MAX_INGEST_BODY_BYTES } from '../../functions/analytics/lib/ingest-guards';
import { type ApiClient, createApiClient, expectError, expectOk, type SignedInUser } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let api: ApiClient;
let s3: S3Client;

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: runtime.s3Endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  s3?.destroy();
  await runtime?.close();
});

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);

/** An event as mixpanel-browser builds it: its own properties, ids, time in seconds, and what it adds of the page. */
function mixpanelEvent(event: string, props: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  const insertId = randomUUID().replace(/-/g, '').slice(0, 16);
  return {
    event,
    properties: {
      $os: 'Linux',
      $browser: 'Chrome',
      $current_url: 'https://toppubs.example/transfer/secret-token',
      $referrer: 'https://mail.example/inbox',
      utm_source: 'newsletter',
      $browser_version: 140,
      $screen_height: 1080,
      $screen_width: 1920,
      mp_lib: 'web',
      $lib_version: '2.83.0',
      $insert_id: insertId,
      time: Date.now() / 1000,
      distinct_id: '$device:abc',
      $device_id: 'abc',
      token: 'local-token',
      ...props,
      ...overrides,
    },
  };
}

interface PostResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A POST as mixpanel-browser's XHR makes it (form body, its query string), from a chosen loopback
 * address; or as its sendBeacon does when a page is left (the same form, sent as text/plain).
 */
function postForm(
  path: string,
  form: string,
  localAddress = '127.0.0.1',
  contentType = 'application/x-www-form-urlencoded',
): Promise<PostResult> {
  const url = new URL(`${runtime.url}${path}?verbose=1&ip=1&_=${Date.now()}`);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        localAddress,
        headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(form) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(form);
  });
}

const base64Form = (payload: unknown) =>
  `data=${encodeURIComponent(Buffer.from(JSON.stringify(payload), 'utf8').toString('base64'))}`;
const track = (payload: unknown, localAddress?: string) => postForm('/api/e/analytics/track', base64Form(payload), localAddress);

/** Every stored event (after the stream's buffer is written), by arrival day prefix. */
async function storedEvents(prefix = 'events/'): Promise<StoredAnalyticsEvent[]> {
  await runtime.analytics.flush();
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: runtime.analytics.bucket, Prefix: prefix }));
  const events: StoredAnalyticsEvent[] = [];
  for (const object of listed.Contents ?? []) {
    const body = await s3.send(new GetObjectCommand({ Bucket: runtime.analytics.bucket, Key: object.Key }));
    const text = await body.Body?.transformToString();
    for (const line of (text ?? '').split('\n')) if (line) events.push(JSON.parse(line) as StoredAnalyticsEvent);
  }
  return events;
}

const storedIds = async () => new Set((await storedEvents()).map((event) => event.insert_id));

describe('analytics ingestion', () => {
  it("keeps a batch's good events, drops the bad ones, and stores only the listed properties", async () => {
    // Prepare: two good events, then an unknown name, a bad property, and no $insert_id.
    const good = [
      mixpanelEvent('Transfer Files Added', { files: 3, bytes: 1024 }),
      mixpanelEvent('Page Viewed', { route: `/topic/:tag${'x'.repeat(400)}` }),
    ];
    const bad = [
      mixpanelEvent('Secret Event', {}),
      mixpanelEvent('Transfer Files Added', { files: 'three', bytes: 1 }),
      mixpanelEvent('Story Liked', { liked: true }, { $insert_id: undefined }),
    ];

    // Act
    const answer = await track([good[0], bad[0], good[1], bad[1], bad[2]]);

    // Assess
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 1, error: null, accepted: 2, dropped: 3 });
    const stored = await storedEvents(`events/dt=${today()}/`);
    const mine = stored.filter((event) => good.some((sent) => sent.properties.$insert_id === event.insert_id));
    expect(mine).toHaveLength(2);
    const files = mine.find((event) => event.event === 'Transfer Files Added');
    expect(files).toMatchObject({
      props: { files: 3, bytes: 1024 },
      distinct_id: '$device:abc',
      device_id: 'abc',
      os: 'Linux',
      lib_version: '2.83.0',
      screen_width: 1920,
    });
    expect(typeof files?.received_at).toBe('string');
    const text = JSON.stringify(stored);
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('mail.example');
    expect(text).not.toContain('newsletter');
    expect(text).not.toContain('Secret Event');
    expect(String(mine.find((event) => event.event === 'Page Viewed')?.props.route)).toHaveLength(255);
  });

  it('drops a time outside the window and an email as distinct_id, and stores a route without its query', async () => {
    // Prepare
    const future = mixpanelEvent('Story Shared', {}, { time: 1e300 });
    const email = mixpanelEvent('Story Shared', {}, { distinct_id: 'ana@example.com' });
    const login = mixpanelEvent('Page Viewed', { route: '/login?token=SECRET' }, { $user_id: 'ana@example.com' });

    // Act
    const answer = await track([future, email, login]);

    // Assess
    expect(JSON.parse(answer.body)).toEqual({ status: 1, error: null, accepted: 1, dropped: 2 });
    const stored = await storedEvents(`events/dt=${today()}/`);
    const ids = new Set([future, email].map((sent) => sent.properties.$insert_id));
    expect(stored.filter((event) => ids.has(event.insert_id))).toEqual([]);
    const page = stored.find((event) => event.insert_id === login.properties.$insert_id);
    expect(page?.props).toEqual({ route: '/login' });
    expect(JSON.stringify(stored)).not.toMatch(/SECRET|ana@example\.com/);
  });

  it('takes a plain JSON payload of a single event too', async () => {
    // Prepare
    const single = mixpanelEvent('Story Shared', {});

    // Act
    const answer = await postForm('/api/e/analytics/track', `data=${encodeURIComponent(JSON.stringify(single))}`);

    // Assess
    expect(JSON.parse(answer.body)).toMatchObject({ accepted: 1, dropped: 0 });
    expect(await storedIds()).toContain(single.properties.$insert_id);
  });

  it('takes the batch mixpanel sends by sendBeacon as a page is left (a text/plain form), and no other text', async () => {
    // Prepare
    const leaving = mixpanelEvent('Page Viewed', { route: '/transfer' });

    // Act
    const beacon = await postForm('/api/e/analytics/track', base64Form([leaving]), '127.0.0.1', 'text/plain;charset=UTF-8');
    const plainJson = await postForm('/api/e/analytics/track', JSON.stringify([leaving]), '127.0.0.1', 'text/csv');

    // Assess
    expect(beacon.status, beacon.body).toBe(200);
    expect(JSON.parse(beacon.body)).toMatchObject({ accepted: 1, dropped: 0 });
    expect(await storedIds()).toContain(leaving.properties.$insert_id);
    expect(plainJson.status).toBe(415);
  });

  it('answers 413 over the size cap, so mixpanel halves its batch, and stores none of it', async () => {
    // Prepare: valid events, just too many bytes.
    const events = Array.from({ length: 60 }, () => mixpanelEvent('Page Viewed', { route: `/${'p'.repeat(250)}` }));
    const padded = events.map((event) => ({ ...event, properties: { ...event.properties, $current_url: 'u'.repeat(3000) } }));
    const form = base64Form(padded);
    expect(form.length).toBeGreaterThan(MAX_INGEST_BODY_BYTES);

    // Act
    const answer = await postForm('/api/e/analytics/track', form);

    // Assess
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toMatch(/256 KB/);
    const ids = await storedIds();
    expect(events.some((event) => ids.has(event.properties.$insert_id as string))).toBe(false);
  });

  it('answers 400 to a body it cannot read, and stores nothing of it', async () => {
    // Prepare
    const before = (await storedEvents()).length;

    // Act
    const notBase64 = await postForm('/api/e/analytics/track', 'data=%%%not-base64%%%');
    const notEvents = await postForm('/api/e/analytics/track', base64Form('just a string'));
    const noData = await postForm('/api/e/analytics/track', 'other=1');

    // Assess
    expect([notBase64.status, notEvents.status, noData.status]).toEqual([400, 400, 400]);
    expect(JSON.parse(notBase64.body).message).toMatch(/base64/);
    expect((await storedEvents()).length).toBe(before);
  });

  it('acknowledges profile updates without storing them', async () => {
    // Act
    const answer = await postForm(
      '/api/e/analytics/engage',
      base64Form([{ $token: 't', $distinct_id: 'u', $set: { $email: 'a@b.c' } }]),
    );

    // Assess
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 1, accepted: 0 });
    expect(JSON.stringify(await storedEvents())).not.toContain('a@b.c');
  });

  it('acknowledges group profile updates without storing them, so mixpanel forgets them', async () => {
    // Act: what mixpanel-browser's group.set sends.
    const answer = await postForm(
      '/api/e/analytics/groups',
      base64Form([{ $token: 't', $group_key: 'company', $group_id: 'acme-7731', $set: { name: 'Acme Widgets 7731' } }]),
    );

    // Assess
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 1, error: null, accepted: 0, dropped: 1 });
    const stored = JSON.stringify(await storedEvents());
    expect(stored).not.toContain('acme-7731');
    expect(stored).not.toContain('Acme Widgets 7731');
  });

  it('answers 429 with Retry-After to an address over the rate limit, and not to another', async () => {
    // Prepare: an empty batch costs a request like any other.
    const empty = base64Form([]);
    let refused: PostResult | undefined;
    let sent = 0;

    // Act: a minute's window may roll over on the way, so send until refused (twice the limit at most).
    while (!refused && sent < INGEST_REQUESTS_PER_MINUTE * 2 + 20) {
      const wave = await Promise.all(Array.from({ length: 20 }, () => postForm('/api/e/analytics/track', empty, '127.0.0.42')));
      sent += wave.length;
      expect(wave.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
      refused = wave.find((answer) => answer.status === 429);
    }
    const other = await postForm('/api/e/analytics/track', empty, '127.0.0.43');

    // Assess
    expect(refused, `no 429 after ${sent} requests`).toBeDefined();
    expect(sent).toBeGreaterThan(INGEST_REQUESTS_PER_MINUTE);
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(other.status).toBe(200);
  });
});

describe('analytics figures', () => {
  let superuser: SignedInUser;
  let user: SignedInUser;

  beforeAll(async () => {
    [superuser, user] = await Promise.all([api.signIn('analytics-admin', { superuser: true }), api.signIn('analytics-user')]);
  });

  it('are for superusers only', async () => {
    // Act
    const anonymous = await api.call(routes.getAnalyticsFigures, {});
    const plain = await api.call(routes.getAnalyticsFigures, { as: user });

    // Assess
    expectError(anonymous, 401);
    expectError(plain, 403, 'FORBIDDEN');
  });

  it('are still made when a stored record has a time no date can hold', async () => {
    // Prepare: a record stored before ingestion checked times
    const bad = { event: 'Story Shared', time: 1e300, distinct_id: 'p', insert_id: randomUUID(), props: {}, received_at: '' };
    await s3.send(
      new PutObjectCommand({
        Bucket: runtime.analytics.bucket,
        Key: `events/dt=${today()}/toppubs-analytics-events-1-bad-${randomUUID()}.ndjson`,
        Body: `${JSON.stringify(bad)}\n`,
      }),
    );

    const startedAt = new Date().toISOString();

    // Act
    await runtime.runJob('aggregate-analytics');
    const answer = await api.call(routes.getAnalyticsFigures, { query: { days: 7 }, as: superuser });

    // Assess: the figures were written by this run, not left frozen
    expectOk(answer);
    expect(answer.body.generatedAt! >= startedAt).toBe(true);
  });

  it('count an event sent again, on the day it happened and on the next, once in every figure', async () => {
    // Prepare: yesterday a person opened the form and finalized a transfer; the browser sent the
    // form event yesterday and, retrying, twice more today. Today someone bought and upgraded.
    const yesterdayNoon = Date.parse(`${today()}T12:00:00Z`) - DAY_MS;
    const yesterday = new Date(yesterdayNoon).toISOString().slice(0, 10);
    const person = `person-${randomUUID()}`;
    const opened = mixpanelEvent('Transfer Form Opened', {}, { time: yesterdayNoon / 1000, distinct_id: person });
    const finalized = mixpanelEvent(
      'Transfer Finalized',
      { elapsedMs: 1800 },
      { time: yesterdayNoon / 1000 + 60, distinct_id: person },
    );
    const firstArrival: StoredAnalyticsEvent = {
      event: 'Transfer Form Opened',
      time: yesterdayNoon,
      distinct_id: person,
      insert_id: opened.properties.$insert_id as string,
      props: {},
      received_at: new Date(yesterdayNoon).toISOString(),
    };
    await runtime.runJob('aggregate-analytics');
    const baseline = await api.call(routes.getAnalyticsFigures, { query: { days: 7 }, as: superuser });
    expectOk(baseline);
    const usersAt = (figures: typeof baseline.body) => figures.funnel.steps.map((step) => step.users);
    await s3.send(
      new PutObjectCommand({
        Bucket: runtime.analytics.bucket,
        Key: `events/dt=${yesterday}/toppubs-analytics-events-1-late-${randomUUID()}.ndjson`,
        Body: `${JSON.stringify(firstArrival)}\n`,
      }),
    );
    for (const batch of [[opened, finalized], [opened]]) expect((await track(batch)).status).toBe(200);
    const buyer = `buyer-${randomUUID()}`;
    const purchase = mixpanelEvent('Purchase', { shopId: 'shop-1', amountMinor: 1250, currency: 'EUR' }, { distinct_id: buyer });
    expect((await track([purchase, purchase, mixpanelEvent('Upgrade Started', {}, { distinct_id: buyer })])).status).toBe(200);
    await runtime.analytics.flush();

    // Act
    await runtime.runJob('aggregate-analytics');
    const answer = await api.call(routes.getAnalyticsFigures, { query: { days: 7 }, as: superuser });

    // Assess
    expectOk(answer);
    const figures = answer.body;
    expect(figures.days).toHaveLength(7);
    expect(figures.days.at(-1)?.date).toBe(today());
    expect(figures.days.find((day) => day.date === yesterday)).toEqual({ date: yesterday, activeUsers: 1, events: 2 });
    expect(figures.funnel.steps.map((step) => step.name)).toEqual(['Form opened', 'Files added', 'Send clicked', 'Finalized']);
    const before = usersAt(baseline.body);
    expect(usersAt(figures)).toEqual([(before[0] ?? 0) + 1, before[1], before[2], (before[3] ?? 0) + 1]);
    expect(figures.funnel.conversion).toBe(((before[3] ?? 0) + 1) / ((before[0] ?? 0) + 1));
    expect(figures.finalizeTiming).toEqual({ count: 1, p50Ms: 1800, p90Ms: 1800 });
    expect(figures.storefront.at(-1)).toEqual({ date: today(), purchases: 1, revenue: [{ currency: 'EUR', amountMinor: 1250 }] });
    expect(figures.upgrades.at(-1)).toMatchObject({ started: 1, completed: 0 });
    expect(figures.generatedAt).not.toBeNull();
  });
});
