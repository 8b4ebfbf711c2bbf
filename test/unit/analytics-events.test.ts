import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseEventLines } from '../../functions/analytics/lib/analytics-bucket';
import { decodeEvents } from '../../functions/analytics/lib/decode-events';
import { aggregateDay, combineFigures, type DailyAggregate, percentile } from '../../functions/analytics/lib/daily-aggregate';
import { chunkRecords, firehoseSink, packLines } from '../../functions/analytics/lib/event-sink';
import { toStoredEvent } from '../../functions/analytics/lib/stored-event';
import { BadRequest, ServiceUnavailable } from '../../functions/lib/errors';
import { runAsFunction } from '../../functions/lib/function-environment';
import { capabilitiesOf } from '../../shared/capabilities';
import type { StoredAnalyticsEvent } from '../../shared/schemas/analytics';

const RECEIVED = '2026-11-27T10:00:00.000Z';
const base64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

function event(name: string, props: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { event: name, properties: { distinct_id: 'person', $insert_id: 'id-1', time: 1_795_773_600.5, ...props, ...extra } };
}

describe('decoding what mixpanel-browser posts', () => {
  it('reads base64 and plain JSON, a batch or a single event, with unicode intact', () => {
    // Prepare
    const batch = [event('Story Shared', {}), event('Page Viewed', { route: '/über' })];

    // Act
    const fromBase64 = decodeEvents(base64(batch));
    const fromBase64WithSpaces = decodeEvents(base64(batch).replace(/\+/g, ' '));
    const fromJson = decodeEvents(JSON.stringify(batch[1]));

    // Assess
    expect(fromBase64).toEqual(batch);
    expect(fromBase64WithSpaces).toEqual(batch);
    expect(fromJson).toEqual([batch[1]]);
  });

  it('refuses what is neither, so mixpanel drops the request instead of retrying it', () => {
    // Act + Assess
    for (const data of ['%%%', base64('a string'), base64(42), '{"event":', 'bm90IGpzb24=']) {
      expect(() => decodeEvents(data), data).toThrow(BadRequest);
    }
  });
});

describe('checking and stripping one event', () => {
  it('keeps the own and listed properties only, with time in milliseconds', () => {
    // Act
    const verdict = toStoredEvent(
      event('Transfer Send Clicked', {
        files: 2,
        recipients: 3,
        $os: 'Mac OS X',
        $current_url: 'https://x/secret',
        utm_source: 'mail',
        $screen_width: 1440,
      }),
      RECEIVED,
    );

    // Assess
    expect(verdict).toEqual({
      kept: {
        event: 'Transfer Send Clicked',
        time: 1_795_773_600_500,
        distinct_id: 'person',
        insert_id: 'id-1',
        os: 'Mac OS X',
        screen_width: 1440,
        props: { files: 2, recipients: 3 },
        received_at: RECEIVED,
      },
    });
  });

  it('cuts long strings to 255 characters, own and common', () => {
    // Act
    const verdict = toStoredEvent(event('Page Viewed', { route: `/${'a'.repeat(300)}`, $browser: 'b'.repeat(300) }), RECEIVED);

    // Assess
    if (!('kept' in verdict)) throw new Error(verdict.dropped);
    expect(String(verdict.kept.props.route)).toHaveLength(255);
    expect(verdict.kept.browser).toHaveLength(255);
  });

  it('keeps only the path of a route and leaves out an email-shaped $user_id', () => {
    // Act
    const login = toStoredEvent(
      event('Page Viewed', { route: '/login?token=SECRET#then', $user_id: 'ana@example.com', $device_id: 'device-1' }),
      RECEIVED,
    );
    const fragment = toStoredEvent(event('Page Viewed', { route: '/topic/:tag#top' }), RECEIVED);

    // Assess
    if (!('kept' in login)) throw new Error(login.dropped);
    expect(login.kept.props).toEqual({ route: '/login' });
    expect(login.kept.user_id).toBeUndefined();
    expect(login.kept.device_id).toBe('device-1');
    expect(JSON.stringify(login.kept)).not.toMatch(/SECRET|ana@example\.com/);
    expect('kept' in fragment && fragment.kept.props).toEqual({ route: '/topic/:tag' });
  });

  it('keeps times from 30 days back to a day ahead of arrival', () => {
    // Prepare
    const arrived = Date.parse(RECEIVED) / 1000;

    // Act
    const verdicts = [arrived + 86_399, arrived - 29 * 86_400].map((time) =>
      toStoredEvent(event('Story Shared', {}, { time }), RECEIVED),
    );

    // Assess
    for (const verdict of verdicts) expect(verdict).toHaveProperty('kept');
  });

  it.each([
    ['an unknown event', { event: 'Secret', properties: { distinct_id: 'p', $insert_id: 'i', time: 1 } }, 'unknown event'],
    ['a wrong property type', event('Story Liked', { liked: 'yes' }), 'bad properties of Story Liked'],
    ['a missing own property', event('Transfer Finalized', {}), 'bad properties of Transfer Finalized'],
    ['a value outside the catalogue', event('Checkout Step', { step: 'stolen' }), 'bad properties of Checkout Step'],
    ['no $insert_id', event('Story Shared', {}, { $insert_id: '' }), 'no $insert_id'],
    ['no distinct_id', event('Story Shared', {}, { distinct_id: undefined }), 'no distinct_id'],
    ['no time', event('Story Shared', {}, { time: 'now' }), 'no time'],
    ['not an object', 'Story Shared', 'not an object'],
    ['a time far in the future', event('Story Shared', {}, { time: 1e300 }), 'time in the future'],
    ['a time over a day ahead', event('Story Shared', {}, { time: Date.parse(RECEIVED) / 1000 + 86_401 }), 'time in the future'],
    ['a time over 30 days back', event('Story Shared', {}, { time: Date.parse(RECEIVED) / 1000 - 31 * 86_400 }), 'time too old'],
    [
      'an email address as distinct_id',
      event('Story Shared', {}, { distinct_id: 'ana@example.com' }),
      'email-shaped distinct_id',
    ],
  ])('drops %s', (_name, raw, reason) => {
    // Act + Assess
    expect(toStoredEvent(raw, RECEIVED)).toEqual({ dropped: reason });
  });
});

const stored = (name: string, insertId: string, time: string, props: StoredAnalyticsEvent['props'] = {}, person = 'p1') =>
  ({
    event: name,
    insert_id: insertId,
    time: Date.parse(time),
    distinct_id: person,
    props,
    received_at: RECEIVED,
  }) as StoredAnalyticsEvent;

describe('daily figures', () => {
  it('skip a stored record whose time no date can hold, and count the others', () => {
    // Prepare: stored before ingestion checked times
    const lines = [
      JSON.stringify(stored('Story Shared', 'good', '2026-11-26T10:00:00Z')),
      JSON.stringify({ ...stored('Story Shared', 'bad', '2026-11-26T10:00:00Z'), time: 1e300 }),
      JSON.stringify({ ...stored('Transfer Finalized', 'no-props', '2026-11-26T10:00:00Z'), props: null }),
    ].join('\n');

    // Act
    const parsed = parseEventLines(lines);
    const day = aggregateDay(
      '2026-11-26',
      [...parsed.events, { ...stored('Story Shared', 'x', '2026-11-26T10:00:00Z'), time: 1e300 }],
      RECEIVED,
    );

    // Assess
    expect(parsed).toMatchObject({ broken: 2 });
    expect(parsed.events.map((one) => one.insert_id)).toEqual(['good']);
    expect(day).toMatchObject({ events: 1, activeUsers: 1 });
  });

  it("count each event id once, only the day's events, and people by distinct id", () => {
    // Prepare
    const events = [
      stored('Transfer Form Opened', 'a', '2026-11-26T10:00:00Z'),
      stored('Transfer Form Opened', 'a', '2026-11-26T10:00:00Z'),
      stored('Transfer Finalized', 'b', '2026-11-26T10:05:00Z', { elapsedMs: 900 }),
      stored('Transfer Finalized', 'b', '2026-11-26T10:05:00Z', { elapsedMs: 900 }),
      stored('Purchase', 'c', '2026-11-26T23:59:59Z', { shopId: 's', amountMinor: 500, currency: 'USD' }, 'p2'),
      stored('Purchase', 'd', '2026-11-26T12:00:00Z', { shopId: 's', amountMinor: 250, currency: 'EUR' }, 'p2'),
      stored('Upgrade Completed', 'e', '2026-11-27T00:00:00Z', {}, 'p3'),
    ];

    // Act
    const day = aggregateDay('2026-11-26', events, RECEIVED);

    // Assess
    expect(day).toMatchObject({
      events: 4,
      activeUsers: 2,
      finalizeMs: [900],
      upgrades: { started: 0, completed: 0 },
      storefront: { purchases: 2, revenue: { USD: 500, EUR: 250 } },
    });
    expect(day.funnel['Form opened']).toHaveLength(1);
    expect(day.funnel['Files added']).toEqual([]);
    expect(JSON.stringify(day)).not.toContain('p1');
  });

  it('combine days into a period: distinct people across days, percentiles over every time, zeros for missing days', () => {
    // Prepare
    const first = aggregateDay(
      '2026-11-25',
      [
        stored('Transfer Form Opened', 'a', '2026-11-25T10:00:00Z'),
        stored('Transfer Form Opened', 'b', '2026-11-25T10:00:00Z', {}, 'p2'),
      ],
      '2026-11-25T23:00:00Z',
    );
    const second = aggregateDay(
      '2026-11-27',
      [
        stored('Transfer Form Opened', 'c', '2026-11-27T10:00:00Z'),
        ...[100, 200, 300, 400, 500, 600, 700, 800, 900, 1000].map((ms, index) =>
          stored('Transfer Finalized', `f${index}`, '2026-11-27T11:00:00Z', { elapsedMs: ms }),
        ),
      ],
      '2026-11-27T12:00:00Z',
    );
    const aggregates = new Map<string, DailyAggregate>([
      [first.date, first],
      [second.date, second],
    ]);

    // Act
    const figures = combineFigures(['2026-11-25', '2026-11-26', '2026-11-27'], aggregates);

    // Assess
    expect(figures.generatedAt).toBe('2026-11-27T12:00:00Z');
    expect(figures.days).toEqual([
      { date: '2026-11-25', activeUsers: 2, events: 2 },
      { date: '2026-11-26', activeUsers: 0, events: 0 },
      { date: '2026-11-27', activeUsers: 1, events: 11 },
    ]);
    expect(figures.funnel.steps.map((step) => step.users)).toEqual([2, 0, 0, 1]);
    expect(figures.funnel.conversion).toBe(0.5);
    expect(figures.finalizeTiming).toEqual({ count: 10, p50Ms: 500, p90Ms: 900 });
    expect(figures.storefront[1]).toEqual({ date: '2026-11-26', purchases: 0, revenue: [] });
  });

  it('have no conversion or percentiles without events', () => {
    // Act
    const figures = combineFigures(['2026-11-27'], new Map());

    // Assess
    expect(figures.funnel.conversion).toBe(0);
    expect(figures.finalizeTiming).toEqual({ count: 0, p50Ms: null, p90Ms: null });
    expect(figures.generatedAt).toBeNull();
    expect(percentile([7], 0.9)).toBe(7);
  });
});

describe('the Firehose sink', () => {
  const firehose = mockClient(FirehoseClient);
  afterEach(() => firehose.reset());
  // Unit files share their modules (one thread, no isolation): leave the real client behind.
  afterAll(() => firehose.restore());
  const scope = {
    name: 'trackAnalyticsEvents',
    env: {
      ...process.env,
      TABLE_NAME: 'table',
      ALLOWED_ORIGINS: 'http://localhost',
      ANALYTICS_ACCESS: 'put',
      ANALYTICS_BUCKET_NAME: 'bucket',
      ANALYTICS_STREAM_NAME: 'stream',
    },
    capabilities: capabilitiesOf({ analytics: 'put' }, { table: 'read-write' }),
  };
  const lines = (count: number) => Array.from({ length: count }, (_, index) => stored('Story Shared', `id-${index}`, RECEIVED));

  it('packs the lines into records and calls within the limits', () => {
    // Act
    const records = packLines(Array.from({ length: 3000 }, (_, index) => `${'x'.repeat(999)}${index % 10}\n`));
    const calls = chunkRecords(Array.from({ length: 1200 }, () => new Uint8Array(10)));

    // Assess
    expect(records.length).toBe(4);
    expect(Math.max(...records.map((record) => record.byteLength))).toBeLessThanOrEqual(900 * 1024);
    expect(records.reduce((sum, record) => sum + record.byteLength, 0)).toBe(3000 * 1001);
    expect(calls.map((call) => call.length)).toEqual([500, 500, 200]);
  });

  it('sends again what Firehose reports failed, then stops', async () => {
    // Prepare: the first answer fails the record, the second takes it.
    firehose
      .on(PutRecordBatchCommand)
      .resolvesOnce({ FailedPutCount: 1, RequestResponses: [{ ErrorCode: 'ServiceUnavailableException' }] })
      .resolves({ FailedPutCount: 0, RequestResponses: [{ RecordId: 'r' }] });

    // Act
    await runAsFunction(scope, () => firehoseSink().put(lines(3)));

    // Assess
    const calls = firehose.commandCalls(PutRecordBatchCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.args[0].input.DeliveryStreamName).toBe('stream');
    const text = new TextDecoder().decode(calls[1]?.args[0].input.Records?.[0]?.Data);
    expect(text.trim().split('\n')).toHaveLength(3);
  });

  it('answers 503 when records keep failing, so the browser sends the batch again', async () => {
    // Prepare
    firehose.on(PutRecordBatchCommand).resolves({ FailedPutCount: 1, RequestResponses: [{ ErrorCode: 'InternalFailure' }] });

    // Act
    const putting = runAsFunction(scope, () => firehoseSink().put(lines(2)));

    // Assess
    await expect(putting).rejects.toThrow(ServiceUnavailable);
    expect(firehose.commandCalls(PutRecordBatchCommand)).toHaveLength(3);
  });
});
