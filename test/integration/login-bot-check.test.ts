import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueBotPass } from '../../functions/account/lib/bot-check';
import { RECAPTCHA_API_ORIGIN } from '../../functions/account/lib/recaptcha-assessors';
import { getDb } from '../../functions/lib/db/service';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const ASSESS = '/api/e/recaptcha/assess';
const GOOGLE_URL = '/api/i/user/auth/login/google/url?returnTo=%2F';
const PASS_COOKIE =
  /^toppubs_human=([\w-]{43}); Path=\/api\/i\/user\/auth\/login\/google; HttpOnly; Secure; SameSite=Lax; Max-Age=300$/;

let runtime: TestRuntime;
/** Assessments Google was asked for; the token decides the score ('human' 0.9, anything else 0.1). */
const googleCalls: string[] = [];

interface Answer {
  status: number;
  cookies: string[];
  retryAfter: string | null;
  json: Record<string, unknown>;
}

/** A request from a chosen loopback address (all of 127.0.0.0/8 is this machine): one client per address. */
function requestFrom(
  sourceIp: string,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; cookie?: string } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { 'x-application-id': WEB_APPLICATION_ID };
  if (payload !== undefined)
    Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  if (options.cookie) headers.cookie = options.cookie;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: runtime.port, localAddress: sourceIp, path, method, headers },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => {
          const retryAfter = incoming.headers['retry-after'];
          resolve({
            status: incoming.statusCode ?? 0,
            cookies: incoming.headers['set-cookie'] ?? [],
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const assess = (sourceIp: string, token: string) =>
  requestFrom(sourceIp, 'POST', ASSESS, { body: { token, actionName: 'login' } });
const googleLoginUrl = (sourceIp: string, cookie?: string) => requestFrom(sourceIp, 'GET', GOOGLE_URL, cookie ? { cookie } : {});
const passOf = (answer: Answer) =>
  PASS_COOKIE.exec(answer.cookies.find((cookie) => cookie.startsWith('toppubs_human=')) ?? '')?.[1];

beforeAll(async () => {
  // reCAPTCHA Enterprise is configured; Google's assessment API is played by a stub.
  Object.assign(process.env, {
    RECAPTCHA_PROJECT_ID: 'test-project',
    RECAPTCHA_API_KEY: 'test-key',
    RECAPTCHA_SITE_KEY: 'test-site',
  });
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(RECAPTCHA_API_ORIGIN)) return realFetch(input, init);
    const { event } = JSON.parse(String(init?.body)) as { event: { token: string } };
    googleCalls.push(event.token);
    const score = event.token === 'human' ? 0.9 : 0.1;
    return Response.json({ tokenProperties: { valid: true, action: 'login' }, riskAnalysis: { score, reasons: [] } });
  });
  runtime = await startTestRuntime({ seedPublications: 50 });
});

afterAll(async () => {
  await runtime?.close();
  vi.unstubAllGlobals();
});

describe('Google login with reCAPTCHA configured', () => {
  it('is refused to a caller who has not passed the bot check', async () => {
    // Act
    const answer = await googleLoginUrl('127.0.0.41');

    // Assess
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({
      code: 'BOT_CHECK_REQUIRED',
      message:
        'We could not confirm that a person is signing in. Close the login window, open it again and retry, or log in by email.',
    });
    expect(answer.cookies).toEqual([]);
  });

  it('starts for the browser that just passed the bot check, once', async () => {
    // Prepare
    const assessed = await assess('127.0.0.42', 'human');
    const pass = passOf(assessed);

    // Act
    const started = await googleLoginUrl('127.0.0.42', `toppubs_human=${pass}`);
    const replayed = await googleLoginUrl('127.0.0.42', `toppubs_human=${pass}`);

    // Assess
    expect(assessed.status).toBe(200);
    expect(assessed.json).toEqual({ riskAnalysis: { score: 0.9, reasons: [] } });
    expect(pass).toBeDefined();
    expect(started.status).toBe(200);
    expect(String(started.json.url)).toContain('/authorize?');
    expect(replayed.status).toBe(403);
  });

  it('gives no pass for a low score, and refuses a pass that has expired or was made up', async () => {
    // Prepare
    const lowScore = await assess('127.0.0.43', 'bot');
    const stale = await issueBotPass(getDb(), { now: new Date(Date.now() - 6 * 60_000) });

    // Act
    const withoutPass = await googleLoginUrl('127.0.0.43');
    const withStalePass = await googleLoginUrl('127.0.0.43', `toppubs_human=${stale.value}`);
    const withMadeUpPass = await googleLoginUrl('127.0.0.43', `toppubs_human=${'a'.repeat(43)}`);

    // Assess
    expect(lowScore.status).toBe(200);
    expect(lowScore.json).toEqual({ riskAnalysis: { score: 0.1, reasons: [] } });
    expect(passOf(lowScore)).toBeUndefined();
    expect([withoutPass.status, withStalePass.status, withMadeUpPass.status]).toEqual([403, 403, 403]);
  });
});

describe('the bot check itself', () => {
  it('is limited per client network, without asking Google for refused calls', async () => {
    // Prepare: start well inside a 10-minute window, so the count is not split across two.
    const left = 600 - (Math.floor(Date.now() / 1000) % 600);
    if (left < 20) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
    const before = googleCalls.length;

    // Act
    const answers: Answer[] = [];
    for (let index = 0; index < 22; index += 1) answers.push(await assess('127.0.0.44', 'human'));
    const neighbour = await assess('127.0.0.45', 'human');

    // Assess
    expect(answers.slice(0, 20).map((answer) => answer.status)).toEqual(Array(20).fill(200));
    for (const refused of answers.slice(20)) {
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ code: 'RATE_LIMITED' });
      expect(refused.json.message).toMatch(/^Too many bot checks from your network\. Try again in \d+ (minutes?|seconds?)\.$/);
      expect(Number(refused.retryAfter)).toBe(refused.json.retryAfterSeconds);
      expect(passOf(refused)).toBeUndefined();
    }
    expect(neighbour.status).toBe(200);
    expect(googleCalls.length - before).toBe(21);
  });
});
