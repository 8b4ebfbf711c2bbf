import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../functions/lib/config';
import {
  ACTION_MISMATCH,
  assessorFromConfig,
  createEnterpriseAssessor,
  localAssessor,
  RecaptchaUnavailable,
} from '../../functions/account/lib/recaptcha-assessors';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import * as recaptchaRoutes from '../../shared/routes/recaptcha';
import { createTestTable } from '../support/dynamo';

const PROJECT = 'toppubs-prod';
const API_KEY = 'api-key/with+chars';
const SITE_KEY = 'site-key-1';
const ASSESSMENTS_URL = `https://recaptchaenterprise.googleapis.com/v1/projects/${PROJECT}/assessments?key=${encodeURIComponent(API_KEY)}`;

const input = { token: 'token-abc', actionName: 'login', userIpAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 test' };

/** Stubs fetch with one answer and returns the mock, to read the request it got. */
function stubFetch(answer: () => Promise<Response> | Response) {
  const fetchMock = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const validAnswer = (score: number, action = 'login', reasons: string[] = []) =>
  json({
    name: `projects/${PROJECT}/assessments/abc`,
    event: {},
    tokenProperties: { valid: true, invalidReason: 'INVALID_REASON_UNSPECIFIED', action, hostname: 'toppubs.example' },
    riskAnalysis: { score, reasons },
  });

const enterprise = (timeoutMs?: number) =>
  createEnterpriseAssessor({ projectId: PROJECT, apiKey: API_KEY, siteKey: SITE_KEY, ...(timeoutMs ? { timeoutMs } : {}) });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('assessRecaptcha route', () => {
  const body = recaptchaRoutes.assessRecaptcha.body;

  it('is a public POST on /api/e/recaptcha/assess', () => {
    expect(recaptchaRoutes.assessRecaptcha).toMatchObject({
      method: 'POST',
      path: '/api/e/recaptcha/assess',
      access: 'public',
      handler: 'account/assess-recaptcha',
      // It counts calls per client and stores the one-time pass when reCAPTCHA is configured.
      capabilities: { table: 'read-write', email: false, settings: ['recaptcha'] },
    });
  });

  it('accepts {token, actionName} and refuses extra keys, missing keys and oversized values', () => {
    expect(body.safeParse({ token: 't', actionName: 'login' }).success).toBe(true);
    expect(body.safeParse({ token: 'x'.repeat(4000), actionName: 'a'.repeat(100) }).success).toBe(true);
    expect(body.safeParse({ token: 'x'.repeat(4001), actionName: 'login' }).success).toBe(false);
    expect(body.safeParse({ token: 't', actionName: 'a'.repeat(101) }).success).toBe(false);
    expect(body.safeParse({ token: 't', actionName: 'login', extra: 1 }).success).toBe(false);
    expect(body.safeParse({ token: 't' }).success).toBe(false);
    expect(body.safeParse({ token: 1, actionName: 'login' }).success).toBe(false);
  });

  it('answers a score between 0 and 1 with reasons', () => {
    const response = recaptchaRoutes.assessRecaptcha.response;
    expect(response.safeParse({ riskAnalysis: { score: 0.7, reasons: ['AUTOMATION'] } }).success).toBe(true);
    expect(response.safeParse({ riskAnalysis: { score: 1.5, reasons: [] } }).success).toBe(false);
  });
});

describe('local assessor', () => {
  it('scores every token 1 with no reasons and asks nobody', async () => {
    // Prepare
    const fetchMock = stubFetch(() => json({}));

    // Act
    const result = await localAssessor.assess({ ...input, token: 'local' });

    // Assess
    expect(result).toEqual({ score: 1, reasons: [] });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('reCAPTCHA Enterprise assessor', () => {
  it('posts the event to the assessments API with the key and a timeout', async () => {
    // Prepare
    const fetchMock = stubFetch(() => validAnswer(0.9));

    // Act
    await enterprise().assess(input);

    // Assess
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe(ASSESSMENTS_URL);
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(String(init?.body))).toEqual({
      event: {
        token: 'token-abc',
        siteKey: SITE_KEY,
        expectedAction: 'login',
        userIpAddress: '203.0.113.9',
        userAgent: 'Mozilla/5.0 test',
      },
    });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('leaves out an unknown IP address and user agent', async () => {
    const fetchMock = stubFetch(() => validAnswer(0.9));
    await enterprise().assess({ ...input, userIpAddress: undefined, userAgent: undefined });
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({
      event: { token: 'token-abc', siteKey: SITE_KEY, expectedAction: 'login' },
    });
  });

  it("answers Google's score and reasons for a valid token of the expected action", async () => {
    stubFetch(() => validAnswer(0.3, 'login', ['AUTOMATION', 'TOO_MUCH_TRAFFIC']));
    await expect(enterprise().assess(input)).resolves.toEqual({ score: 0.3, reasons: ['AUTOMATION', 'TOO_MUCH_TRAFFIC'] });
  });

  it("scores 0 with 'ACTION_MISMATCH' a valid token made for another action", async () => {
    stubFetch(() => validAnswer(0.9, 'signup'));
    await expect(enterprise().assess(input)).resolves.toEqual({ score: 0, reasons: [ACTION_MISMATCH] });
  });

  it('scores 0 an invalid token, with its invalid reason', async () => {
    stubFetch(() =>
      json({ tokenProperties: { valid: false, invalidReason: 'EXPIRED', action: '' }, riskAnalysis: { score: 0 } }),
    );
    await expect(enterprise().assess(input)).resolves.toEqual({ score: 0, reasons: ['EXPIRED'] });
  });

  it.each([
    ['a 500', () => json({ error: { code: 500 } }, 500)],
    ['a 403 (bad key)', () => json({ error: { code: 403, message: 'API key not valid' } }, 403)],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed'))],
    ['an answer that is not JSON', () => new Response('<html>', { status: 200 })],
    ['a valid token without a score', () => json({ tokenProperties: { valid: true, action: 'login' }, riskAnalysis: {} })],
  ])('is unavailable on %s, without quoting the key', async (_case, answer) => {
    stubFetch(answer);
    const error = await enterprise()
      .assess(input)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RecaptchaUnavailable);
    expect(String((error as Error).message)).not.toContain(API_KEY);
  });

  it('gives up after its timeout instead of hanging', async () => {
    // Prepare: a Google that never answers, only aborts.
    const fetchMock = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const started = Date.now();

    // Act
    const error = await enterprise(50)
      .assess(input)
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RecaptchaUnavailable);
    expect((error as Error).message).toContain('TimeoutError');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('assessorFromConfig', () => {
  const env = { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com', DECLARED_SETTINGS: 'recaptcha' };

  it('is local without a project id', () => {
    expect(assessorFromConfig(loadConfig(env)).kind).toBe('local');
  });

  it('is reCAPTCHA Enterprise with a project id, key and site key', () => {
    const config = loadConfig({
      ...env,
      RECAPTCHA_PROJECT_ID: PROJECT,
      RECAPTCHA_API_KEY: API_KEY,
      RECAPTCHA_SITE_KEY: SITE_KEY,
    });
    expect(config).toMatchObject({ recaptchaProjectId: PROJECT, recaptchaApiKey: API_KEY, recaptchaSiteKey: SITE_KEY });
    expect(assessorFromConfig(config).kind).toBe('enterprise');
  });

  it('refuses a project id without its key or site key', () => {
    expect(() => assessorFromConfig(loadConfig({ ...env, RECAPTCHA_PROJECT_ID: PROJECT }))).toThrow(ConfigError);
    expect(() => assessorFromConfig(loadConfig({ ...env, RECAPTCHA_PROJECT_ID: PROJECT, RECAPTCHA_API_KEY: API_KEY }))).toThrow(
      ConfigError,
    );
  });
});

describe('assess handler with reCAPTCHA Enterprise', () => {
  const context = { awsRequestId: 'request-1', functionName: 'recaptcha-assess' } as Context;

  function buildEvent(body: string): APIGatewayProxyEventV2 {
    const path = '/api/e/recaptcha/assess';
    return {
      version: '2.0',
      routeKey: `POST ${path}`,
      rawPath: path,
      rawQueryString: '',
      headers: {
        'content-type': 'application/json',
        'x-application-id': WEB_APPLICATION_ID,
        origin: 'https://app.example.com',
        'user-agent': 'Mozilla/5.0 test',
      },
      body,
      isBase64Encoded: false,
      requestContext: {
        accountId: '123456789012',
        apiId: 'api',
        domainName: 'api.example.com',
        domainPrefix: 'api',
        http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'Mozilla/5.0 test' },
        requestId: randomUUID(),
        routeKey: `POST ${path}`,
        stage: '$default',
        time: '01/Jan/2024:00:00:00 +0000',
        timeEpoch: 1_704_067_200_000,
      },
    };
  }

  async function loadHandler() {
    // With reCAPTCHA configured the handler counts calls and stores passes: it needs a table.
    const table = await createTestTable();
    vi.stubEnv('TABLE_NAME', table.tableName);
    vi.stubEnv('DYNAMODB_ENDPOINT', table.endpoint);
    vi.stubEnv('ALLOWED_ORIGINS', 'https://app.example.com');
    vi.stubEnv('RECAPTCHA_PROJECT_ID', PROJECT);
    vi.stubEnv('RECAPTCHA_API_KEY', API_KEY);
    vi.stubEnv('RECAPTCHA_SITE_KEY', SITE_KEY);
    vi.stubEnv('DECLARED_SETTINGS', 'recaptcha');
    vi.resetModules();
    const { handler } = await import('../../functions/account/assess-recaptcha');
    return (event: APIGatewayProxyEventV2) => handler(event, context) as Promise<APIGatewayProxyStructuredResultV2>;
  }

  it("answers {riskAnalysis} from Google's assessment, passing the caller's IP and user agent", async () => {
    // Prepare
    const invoke = await loadHandler();
    const fetchMock = stubFetch(() => validAnswer(0.2, 'login', ['AUTOMATION']));

    // Act
    const result = await invoke(buildEvent(JSON.stringify({ token: 'token-abc', actionName: 'login' })));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body ?? '')).toEqual({ riskAnalysis: { score: 0.2, reasons: ['AUTOMATION'] } });
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toMatchObject({
      event: { userIpAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 test' },
    });
  });

  it('answers 503 when Google fails', async () => {
    // Prepare
    const invoke = await loadHandler();
    stubFetch(() => Promise.reject(new TypeError('fetch failed')));

    // Act
    const result = await invoke(buildEvent(JSON.stringify({ token: 'token-abc', actionName: 'login' })));

    // Assess
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body ?? '')).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(result.body).not.toContain(API_KEY);
  });
});
