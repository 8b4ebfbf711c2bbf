import { SendEmailCommand, SendRawEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../functions/lib/db/service';
import { HttpError } from '../../functions/lib/errors';
import { html, mailLink, type MailTemplate } from '../../functions/lib/mail/template';
import { logger } from '../../functions/lib/logger';
import { createMailer, defineMailKind, mailMetrics, sendMail } from '../../functions/lib/mailer';
import { hashedKeyPart, type LimitRule } from '../../functions/lib/rate-limit';
import { createTestTable } from '../support/dynamo';

const FROM = 'TopPubs <login@toppubs.example>';
const ses = mockClient(SESClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => ses.restore());
const mailer = createMailer({ from: FROM });
let db: Db;

/** A transfer-invitation-like mail whose data comes from people: it must be escaped in HTML. */
const invitationTemplate: MailTemplate<{ senderName: string; fileName: string; url: string }> = (data) => ({
  subject: `${data.senderName} sent you ${data.fileName}`,
  text: `${data.senderName} sent you ${data.fileName}:\n${mailLink(data.url)}\n`,
  html: html`<p><b>${data.senderName}</b> sent you ${data.fileName}: <a href="${mailLink(data.url)}">download</a></p>`.markup,
});

/** A kind with small limits, named per test so that tests never share counters. */
function kindNamed(name: string, overrides: { perDay?: number; perHour?: number } = {}) {
  return defineMailKind({
    name,
    template: invitationTemplate,
    cooldown: { seconds: 60, message: (wait) => `Wait ${wait} seconds.` },
    ...(overrides.perDay
      ? { dailyPerAddress: { limit: overrides.perDay, message: (wait: number) => `Daily cap, wait ${wait}.` } }
      : {}),
    hourlyOverall: { limit: overrides.perHour ?? 100, message: (wait) => `Service busy, wait ${wait}.` },
    unavailableMessage: 'We could not send the invitation right now.',
  });
}

const DATA = {
  senderName: 'Ann <script>alert(1)</script> & "Co"',
  fileName: "report's.pdf",
  url: 'https://app.example.com/t/abc?x=1&y=2',
};
const T0 = new Date('2026-03-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);

/** The counter of a kind's service-wide hourly cap in the window of `now`. */
async function hourlyCount(kindName: string, now: Date): Promise<number> {
  const seconds = Math.floor(now.getTime() / 1000);
  const { data } = await db.entities.rateLimit.get({ key: `${kindName}:all`, windowStart: seconds - (seconds % 3600) }).go();
  return data?.count ?? 0;
}

beforeAll(async () => {
  ({ db } = await createTestTable());
});

afterEach(() => {
  ses.reset();
  vi.restoreAllMocks();
});

describe('sending a mail of a kind', () => {
  it('renders the template, escaping people-made values in HTML only, and sends it through SES', async () => {
    // Prepare
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });

    // Act
    const sent = await sendMail(db, kindNamed('render'), { to: ' Guest@Example.com ', data: () => DATA, now: T0, mailer });

    // Assess
    expect(sent).toEqual({ messageId: 'ses-1' });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      Source: FROM,
      Destination: { ToAddresses: ['guest@example.com'] },
      Message: {
        Subject: { Data: `Ann <script>alert(1)</script> & "Co" sent you report's.pdf`, Charset: 'UTF-8' },
        Body: {
          Text: {
            Data: `Ann <script>alert(1)</script> & "Co" sent you report's.pdf:\nhttps://app.example.com/t/abc?x=1&y=2\n`,
            Charset: 'UTF-8',
          },
          Html: {
            Data:
              '<p><b>Ann &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;</b> sent you report&#39;s.pdf: ' +
              '<a href="https://app.example.com/t/abc?x=1&amp;y=2">download</a></p>',
            Charset: 'UTF-8',
          },
        },
      },
    });
  });

  it('sends a mail with headers of its own (List-Unsubscribe) whole, through SendRawEmail', async () => {
    // Prepare
    ses.on(SendRawEmailCommand).resolves({ MessageId: 'ses-raw' });
    const withHeaders = createMailer({ from: FROM, client: new SESClient({}), configurationSet: 'toppubs-mail' });

    // Act
    const sent = await withHeaders.send({
      to: 'guest@example.com',
      subject: 'Ana liked your story',
      text: 'Ana liked your story.',
      html: '<p>Ana liked your story.</p>',
      headers: { 'List-Unsubscribe': '<https://app.example.com/u?t=1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });

    // Assess
    expect(sent).toEqual({ messageId: 'ses-raw' });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    const input = ses.commandCalls(SendRawEmailCommand)[0]?.args[0].input;
    expect(input).toMatchObject({ Source: FROM, Destinations: ['guest@example.com'], ConfigurationSetName: 'toppubs-mail' });
    const raw = Buffer.from(input?.RawMessage?.Data ?? new Uint8Array()).toString('utf8');
    expect(raw).toContain('\r\nList-Unsubscribe: <https://app.example.com/u?t=1>\r\n');
    expect(raw).toContain('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n');
    expect(raw).toContain('Subject: Ana liked your story');
  });

  it('refuses a header name that could smuggle in another header', async () => {
    // Act
    const sending = mailer.send({
      to: 'guest@example.com',
      subject: 's',
      text: 't',
      html: 'h',
      headers: { 'Bcc: x@y.z\r\nX': 'v' },
    });

    // Assess
    await expect(sending).rejects.toThrow(/Refusing the mail header name/);
  });

  it('refuses to mail a link that is not http(s)', () => {
    // Assess
    expect(() => invitationTemplate({ ...DATA, url: 'javascript:alert(1)' })).toThrow('Refusing to mail a javascript: link');
  });

  it('keeps to one mail per address per cooldown, whatever the letter case, with the exact wait', async () => {
    // Prepare
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-2' });
    const kind = kindNamed('cooldown');
    await sendMail(db, kind, { to: 'one@example.com', data: () => DATA, now: T0, mailer });

    // Act
    const again = await sendMail(db, kind, { to: 'ONE@example.com', data: () => DATA, now: at(15_000), mailer }).catch(
      (error: unknown) => error,
    );
    const other = await sendMail(db, kind, { to: 'two@example.com', data: () => DATA, now: at(15_000), mailer });
    const aMinuteLater = await sendMail(db, kind, { to: 'one@example.com', data: () => DATA, now: at(60_000), mailer });

    // Assess
    expect(again).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Wait 45 seconds.',
      details: { retryAfterSeconds: 45 },
    });
    expect(other.messageId).toBe('ses-2');
    expect(aMinuteLater.messageId).toBe('ses-2');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);
  });

  it('answers 503 when SES fails, and gives every limit back so the person can retry at once', async () => {
    // Prepare
    ses
      .on(SendEmailCommand)
      .rejectsOnce(
        Object.assign(new Error('Maximum sending rate exceeded'), { name: 'Throttling', $metadata: { httpStatusCode: 400 } }),
      )
      .resolves({ MessageId: 'ses-3' });
    const kind = kindNamed('outage');

    // Act
    const failed = await sendMail(db, kind, { to: 'outage@example.com', data: () => DATA, now: T0, mailer }).catch(
      (error: unknown) => error,
    );
    const countAfterFailure = await hourlyCount('outage', T0);
    const retried = await sendMail(db, kind, { to: 'outage@example.com', data: () => DATA, now: at(1_000), mailer });

    // Assess
    expect(failed).toBeInstanceOf(HttpError);
    expect(failed).toMatchObject({ statusCode: 503, message: 'We could not send the invitation right now.' });
    expect((failed as Error).cause).toMatchObject({ name: 'Throttling' });
    expect(countAfterFailure).toBe(0);
    expect(retried.messageId).toBe('ses-3');
    expect(await hourlyCount('outage', T0)).toBe(1);
  });

  it('gives the limits back when making the data fails, and sends nothing', async () => {
    // Prepare
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-4' });
    const kind = kindNamed('data-failure');
    const broken = new Error('could not issue the link');

    // Act
    const failed = sendMail(db, kind, {
      to: 'data@example.com',
      data: () => Promise.reject(broken),
      now: T0,
      mailer,
    });

    // Assess
    await expect(failed).rejects.toBe(broken);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    const retried = await sendMail(db, kind, { to: 'data@example.com', data: () => DATA, now: at(1_000), mailer });
    expect(retried.messageId).toBe('ses-4');
  });

  it('caps mails per address per UTC day, saying how long until midnight', async () => {
    // Prepare
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-5' });
    const kind = kindNamed('daily', { perDay: 2 });
    await sendMail(db, kind, { to: 'daily@example.com', data: () => DATA, now: T0, mailer });
    await sendMail(db, kind, { to: 'daily@example.com', data: () => DATA, now: at(61_000), mailer });

    // Act
    const third = sendMail(db, kind, { to: 'daily@example.com', data: () => DATA, now: at(122_000), mailer });

    // Assess: 12:02:02 UTC is 43,078 seconds before midnight.
    await expect(third).rejects.toMatchObject({
      statusCode: 429,
      message: 'Daily cap, wait 43078.',
      details: { retryAfterSeconds: 43_078 },
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);
  });

  it("charges a hammering caller's own limit but never the service-wide budget for refused mails", async () => {
    // Prepare: the caller may ask 3 times per 10 minutes; the service may send 50 an hour.
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-6' });
    const kind = kindNamed('abuse', { perHour: 50 });
    const perCaller: LimitRule = {
      kind: 'window',
      key: `abuse:ip:${hashedKeyPart('203.0.113.9')}`,
      limit: 3,
      windowSeconds: 600,
      message: (wait) => `Too many from your network, wait ${wait}.`,
      chargeEvenIfRefused: true,
    };
    const send = (to: string, offsetMs: number) =>
      sendMail(db, kind, { to, data: () => DATA, now: at(offsetMs), mailer, callerLimits: [perCaller] });

    // Act: the same victim address twice (cooldown), then three more addresses, one after another.
    const outcomes: PromiseSettledResult<unknown>[] = [];
    const attempts: [string, number][] = [
      ['victim@example.com', 0],
      ['victim@example.com', 1_000],
      ['a@example.com', 2_000],
      ['b@example.com', 3_000],
      ['c@example.com', 4_000],
    ];
    for (const [to, offsetMs] of attempts) outcomes.push(...(await Promise.allSettled([send(to, offsetMs)])));

    // Assess
    const statuses = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 200 : (outcome.reason as HttpError).statusCode));
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).message] : []));
    expect(refusals).toContain('Wait 59 seconds.');
    expect(refusals.filter((message) => message.startsWith('Too many from your network'))).toHaveLength(2);
    expect(await hourlyCount('abuse', T0)).toBe(2);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);
  });
  it("reports each mail from 80% of a kind's service-wide hourly cap on, as a log line and a metric, and still refuses past the cap", async () => {
    // Prepare: a cap of 5 an hour warns from the 4th mail.
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-7' });
    const kind = kindNamed('near-cap', { perHour: 5 });
    const warn = vi.spyOn(logger, 'warn');
    const addMetric = vi.spyOn(mailMetrics, 'addMetric');
    const addMetadata = vi.spyOn(mailMetrics, 'addMetadata');

    // Act
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push(
        await sendMail(db, kind, { to: `cap${index}@example.com`, data: () => DATA, now: at(index * 1_000), mailer }).then(
          () => 200,
          (error: HttpError) => error.statusCode,
        ),
      );
    }

    // Assess
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const nearCap = warn.mock.calls.filter(
      ([message]) => message === 'A kind of mail has used most of its service-wide hourly cap',
    );
    expect(nearCap.map(([, details]) => details)).toEqual([
      { mailKind: 'near-cap', mailsThisHour: 4, hourlyCap: 5, refused: false },
      { mailKind: 'near-cap', mailsThisHour: 5, hourlyCap: 5, refused: false },
      { mailKind: 'near-cap', mailsThisHour: 6, hourlyCap: 5, refused: true },
    ]);
    expect(addMetric.mock.calls).toEqual([
      ['MailHourlyCapNearlyUsed', 'Count', 1],
      ['MailHourlyCapNearlyUsed', 'Count', 1],
      ['MailHourlyCapNearlyUsed', 'Count', 1],
    ]);
    expect(addMetadata.mock.calls).toEqual(Array(3).fill(['mailKind', 'near-cap']));
    expect(await hourlyCount('near-cap', T0)).toBe(5);
  });

  it('refuses to send a kind limited per requesting client when no client address is given', async () => {
    // Prepare
    const kind = defineMailKind({
      ...kindNamed('per-client'),
      dailyPerAddressPerClient: { limit: 3, message: () => 'Too many from your network.' },
    });

    // Act
    const sending = sendMail(db, kind, { to: 'client@example.com', data: () => DATA, now: T0, mailer });

    // Assess
    await expect(sending).rejects.toThrow("Mail kind 'per-client' limits mails per requesting client: pass clientIp to sendMail");
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(await hourlyCount('per-client', T0)).toBe(0);
  });
});
