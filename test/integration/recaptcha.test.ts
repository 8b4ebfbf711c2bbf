import { describe, expect, it } from 'vitest';
import { APPLICATION_ID_HEADER } from '../../shared/constants';
import { routes } from '../../shared/routes';
import { expectError, expectOk, invalid } from '../support/api-client';
import { apiSuite } from '../support/api-suite';

const suite = apiSuite();

describe('POST /api/e/recaptcha/assess (local assessor)', () => {
  it("scores the login modal's placeholder token 1 with no reasons", async () => {
    // Act
    const answer = await suite.api.call(routes.assessRecaptcha, { body: { token: 'local', actionName: 'login' } });

    // Assess
    expectOk(answer);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({ riskAnalysis: { score: 1, reasons: [] } });
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
    const answer = await suite.api.call(routes.assessRecaptcha, { body: invalid(body) });

    // Assess
    expectError(answer, 400, 'VALIDATION_FAILED');
  });

  it('answers 400 for a body that is not JSON', async () => {
    // Act
    const answer = await suite.api.call(routes.assessRecaptcha, { rawBody: '{not json' });

    // Assess
    expectError(answer, 400);
  });

  it('refuses a POST without the application id header', async () => {
    // Act
    const answer = await suite.api.call(routes.assessRecaptcha, {
      body: { token: 'local', actionName: 'login' },
      headers: { [APPLICATION_ID_HEADER]: '' },
    });

    // Assess
    expectError(answer, 403);
  });
});
