import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAppClient } from '../../functions/lib/app-auth';
import { type ApiClient, createApiClient } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const USER = '/api/i/user';
const suffix = randomUUID().slice(0, 8);
const ORIGIN_A = `https://stories-${suffix}.example`;
const ORIGIN_B = `https://transfer-${suffix}.example`;
const APP_A = `stories_${suffix}`;
const APP_B = `transfer_${suffix}`;

let runtime: TestRuntime;
let api: ApiClient;
let tokenA: string;
let tokenB: string;

interface Answer {
  status: number;
  location: string | null;
  json: Record<string, unknown>;
}

async function answer(response: Promise<Response>): Promise<Answer> {
  const resolved = await response;
  const text = await resolved.text();
  return {
    status: resolved.status,
    location: resolved.headers.get('location'),
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

const logIn = () => api.signIn('sso-apps');

const startSso = (returnUrl: string, sessionToken?: string) =>
  answer(
    fetch(`${runtime.url}${USER}/auth/login/sso/start?returnUrl=${encodeURIComponent(returnUrl)}`, {
      redirect: 'manual',
      headers: sessionToken ? { cookie: `ssoat=${sessionToken}` } : {},
    }),
  );

const exchangeAs = (appId: string, appToken: string, code: string, origin: string) =>
  answer(
    runtime.post(`${USER}/auth/login/sso/exchange`, { code, origin }, { 'x-application-id': appId, 'x-app-token': appToken }),
  );

function codeOf(started: Answer): string {
  const code = new URL(started.location ?? 'http://none').searchParams.get('ssoCode');
  if (!code) throw new Error(`No ssoCode: ${started.status} ${started.location ?? JSON.stringify(started.json)}`);
  return code;
}

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 50 });
  api = createApiClient(runtime);
  tokenA = await registerAppClient(APP_A, 'Stories', [ORIGIN_A]);
  tokenB = await registerAppClient(APP_B, 'Transfer', [`${ORIGIN_B}/some/path`]);
});

afterAll(async () => {
  await runtime?.close();
});

describe('single sign-on with apps registered with their own origins', () => {
  it('mints codes for an origin some app registered, and for the web app itself, and for nothing else', async () => {
    // Prepare
    const user = await logIn();

    // Act
    const toA = await startSso(`${ORIGIN_A}/sso/callback`, user.token);
    const toB = await startSso(`${ORIGIN_B}/sso/callback`, user.token);
    const toWeb = await startSso(`${runtime.url}/after`, user.token);
    const toStranger = await startSso(`https://stranger-${suffix}.example/cb`, user.token);

    // Assess
    expect(toA.status).toBe(302);
    expect(new URL(toA.location ?? '').origin).toBe(ORIGIN_A);
    expect(codeOf(toA)).toMatch(/^[\w-]{43}$/);
    expect(toB.status).toBe(302);
    expect(toWeb.status).toBe(302);
    expect(toStranger.status).toBe(400);
    expect(toStranger.json).toEqual({ code: 'SSO_APP_NOT_ALLOWED', message: 'That app is not allowed to sign in here.' });
  });

  it("lets only the app registered for a code's origin exchange it; another app gets 403 and the code stays good", async () => {
    // Prepare
    const user = await logIn();
    const code = codeOf(await startSso(`${ORIGIN_A}/cb`, user.token));

    // Act
    const stolenNamingA = await exchangeAs(APP_B, tokenB, code, ORIGIN_A);
    const stolenNamingB = await exchangeAs(APP_B, tokenB, code, ORIGIN_B);
    const owner = await exchangeAs(APP_A, tokenA, code, ORIGIN_A);

    // Assess
    for (const refused of [stolenNamingA, stolenNamingB]) {
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ code: 'FORBIDDEN', message: 'This sign-on code was issued to another app.' });
      expect(refused.json.sessionToken).toBeUndefined();
    }
    expect(owner.status).toBe(200);
    expect(owner.json.user).toMatchObject({ userId: user.userId });
  });

  it("refuses a code minted for the web app's own origin to an app that did not register it", async () => {
    // Prepare
    const user = await logIn();
    const code = codeOf(await startSso(`${runtime.url}/after`, user.token));

    // Act
    const exchanged = await exchangeAs(APP_A, tokenA, code, runtime.url);

    // Assess
    expect(exchanged.status).toBe(403);
  });

  it('will not register an origin that another app already has', async () => {
    // Act
    const taken = registerAppClient(`thief_${suffix}`, 'Thief', [ORIGIN_A]);

    // Assess
    await expect(taken).rejects.toThrow(`${ORIGIN_A} is already registered to another app`);
    const code = codeOf(await startSso(`${ORIGIN_A}/cb`, (await logIn()).token));
    expect((await exchangeAs(APP_A, tokenA, code, ORIGIN_A)).status).toBe(200);
  });

  it('moves an origin when its app is registered again without it', async () => {
    // Prepare
    const appId = `mover_${suffix}`;
    const origin = `https://mover-${suffix}.example`;
    await registerAppClient(appId, 'Mover', [origin]);
    const before = await startSso(`${origin}/cb`);

    // Act
    await registerAppClient(appId, 'Mover', []);
    const after = await startSso(`${origin}/cb`);
    const otherApp = await registerAppClient(`adopter_${suffix}`, 'Adopter', [origin]);

    // Assess
    expect(before.status).toBe(302);
    expect(after.status).toBe(400);
    expect(otherApp).toMatch(/^[\w-]{43}$/);
  });
});
