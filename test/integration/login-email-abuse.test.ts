import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { uniqueEmail } from '../support/unique';

const SEND = '/api/i/user/auth/login/email';

let runtime: TestRuntime;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  json: Record<string, unknown>;
}

/**
 * POSTs from a chosen loopback address (all of 127.0.0.0/8 is this machine), so one test can
 * play several clients: the API sees each as its own source IP, as API Gateway does.
 */
function postFrom(sourceIp: string, path: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: runtime.port,
        localAddress: sourceIp,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-application-id': WEB_APPLICATION_ID,
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            retryAfter: incoming.headers['retry-after'],
            json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const sendLinkFrom = (sourceIp: string, email: string, body: unknown = {}) =>
  postFrom(sourceIp, `${SEND}?email=${encodeURIComponent(email)}`, body);

/** Login emails counted against the service-wide hourly cap in the current hour. */
async function serviceWideCount(): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const { data } = await getDb()
    .entities.rateLimit.get({ key: 'login-email:all', windowStart: now - (now % 3600) })
    .go({ consistent: true });
  return data?.count ?? 0;
}

/** Seconds until the end of the current fixed window of `windowSeconds`. */
const secondsLeftInWindow = (windowSeconds: number) => windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);

/** Limits count in fixed 10-minute windows (hours end on one too): start well inside one, so a test never straddles two. */
async function clearOfWindowEdge(): Promise<void> {
  const left = secondsLeftInWindow(600);
  if (left < 20) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
}

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 50 });
});

afterAll(async () => {
  await runtime?.close();
});

describe('one client asking for many login links', () => {
  it('is stopped per IP long before the service-wide cap, while other clients still get their links', async () => {
    // Prepare
    const abuser = '127.0.0.21';
    const neighbour = '127.0.0.22';
    await clearOfWindowEdge();
    const before = await serviceWideCount();

    // Act: the abuser asks for 14 links to 14 addresses; then someone else asks for one.
    const answers: Answer[] = [];
    for (let index = 0; index < 14; index += 1) answers.push(await sendLinkFrom(abuser, uniqueEmail(`victim${index}`)));
    const neighbourAnswer = await sendLinkFrom(neighbour, uniqueEmail('neighbour'));

    // Assess
    expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const refused = answers.slice(10);
    expect(refused.map((answer) => answer.status)).toEqual([429, 429, 429, 429]);
    const expectedWait = secondsLeftInWindow(600);
    for (const answer of refused) {
      expect(answer.json).toMatchObject({ code: 'RATE_LIMITED' });
      expect(answer.json.message).toMatch(
        /^Too many login links were asked for from your network\. Try again in \d+ (minute|minutes|second|seconds)\.$/,
      );
      expect(Math.abs(Number(answer.retryAfter) - expectedWait)).toBeLessThanOrEqual(2);
      expect(answer.json.retryAfterSeconds).toBe(Number(answer.retryAfter));
    }
    expect(neighbourAnswer.status).toBe(200);
    // Only the 11 mails that went out count against the service-wide budget.
    expect((await serviceWideCount()) - before).toBe(11);
  });

  it('costs the abuser, not the service, when hammering one address', async () => {
    // Prepare
    const hammer = '127.0.0.23';
    const victim = uniqueEmail('hammered');
    await clearOfWindowEdge();
    const before = await serviceWideCount();

    // Act
    const answers: Answer[] = [];
    for (let index = 0; index < 12; index += 1) answers.push(await sendLinkFrom(hammer, victim));
    const otherClientForVictim = await sendLinkFrom('127.0.0.24', victim);

    // Assess: one mail, then the address's cooldown, then the abuser's own network limit.
    expect(answers[0]?.status).toBe(200);
    expect(
      answers
        .slice(1, 10)
        .every((answer) => answer.status === 429 && /just sent to this address/.test(String(answer.json.message))),
    ).toBe(true);
    expect(
      answers.slice(10).every((answer) => answer.status === 429 && /from your network/.test(String(answer.json.message))),
    ).toBe(true);
    expect(otherClientForVictim.status).toBe(429);
    expect((await serviceWideCount()) - before).toBe(1);
  });
});

describe('context data sent with a login link request', () => {
  it('is refused when larger than 4 KB, naming the field, and leaves the address free to ask again at once', async () => {
    // Prepare
    const email = uniqueEmail('big-context');
    const huge = { note: 'x'.repeat(450 * 1024) };

    // Act
    const oversized = await sendLinkFrom('127.0.0.25', email, { contextData: huge });
    const retried = await sendLinkFrom('127.0.0.25', email, { contextData: { pagePath: '/topics' } });

    // Assess
    expect(oversized.status).toBe(400);
    expect(oversized.json).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(oversized.json.fields).toEqual([{ in: 'body', field: 'contextData', message: 'contextData is at most 4 KB as JSON' }]);
    expect(retried.status).toBe(200);
  });

  it('is accepted up to 4 KB', async () => {
    // Act
    const answer = await sendLinkFrom('127.0.0.26', uniqueEmail('fits'), { contextData: { note: 'y'.repeat(4000) } });

    // Assess
    expect(answer.status).toBe(200);
  });
});
