import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const ASSESS = '/api/e/recaptcha/assess';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 50 });
});

afterAll(async () => {
  await runtime?.close();
});

describe('POST /api/e/recaptcha/assess (local assessor)', () => {
  it("scores the login modal's placeholder token 1 with no reasons", async () => {
    // Act
    const response = await runtime.post(ASSESS, { token: 'local', actionName: 'login' });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ riskAnalysis: { score: 1, reasons: [] } });
  });

  it.each([
    ['a missing token', { actionName: 'login' }],
    ['a missing action', { token: 'local' }],
    ['an extra key', { token: 'local', actionName: 'login', score: 1 }],
    ['a token over 4000 characters', { token: 'x'.repeat(4001), actionName: 'login' }],
    ['an action over 100 characters', { token: 'local', actionName: 'a'.repeat(101) }],
    ['a token that is not a string', { token: 42, actionName: 'login' }],
  ])('answers 400 for %s', async (_case, body) => {
    // Act
    const response = await runtime.post(ASSESS, body);

    // Assess
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await runtime.post(ASSESS, '{not json');
    expect(response.status).toBe(400);
  });

  it('refuses a POST without the application id header', async () => {
    const response = await runtime.post(ASSESS, { token: 'local', actionName: 'login' }, { 'x-application-id': '' });
    expect(response.status).toBe(403);
  });
});
