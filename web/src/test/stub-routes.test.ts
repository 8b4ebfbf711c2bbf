import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { stubRoute, stubRoutes } from './stub-routes';

const post = (path: string, body: unknown) =>
  fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('stubRoutes', () => {
  it('answers a request of the route’s method and path, recording its path parameters and body', async () => {
    // Prepare
    const api = stubRoutes(stubRoute(routes.blockUser, { body: { userId: 'user-sam', blocked: true } }));

    // Act
    const response = await post('/api/i/user/me/mod/interact-user/user%20sam/block', { reason: 'x' });

    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ userId: 'user-sam', blocked: true });
    expect(api.calls(routes.blockUser)).toEqual([
      expect.objectContaining({ method: 'POST', params: { userId: 'user sam' }, body: { reason: 'x' } }),
    ]);
  });

  it('answers 404 to the right path with another method, and counts it as no call of the route', async () => {
    // Prepare
    const api = stubRoutes(stubRoute(routes.blockUser, { body: { userId: 'user-sam', blocked: true } }));

    // Act
    const response = await fetch('/api/i/user/me/mod/interact-user/user-sam/block', { method: 'GET' });

    // Assess
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      message: 'No stub for GET /api/i/user/me/mod/interact-user/user-sam/block',
      code: 'NOT_FOUND',
    });
    expect(api.calls(routes.blockUser)).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it('leaves requests with other path parameters to later stubs', async () => {
    // Prepare
    const api = stubRoutes(
      stubRoute(routes.endSession, { body: { ended: true } }, { sessionId: 'sess-phone' }),
      stubRoute(routes.endSession, { status: 404, body: { message: 'No such session', code: 'NOT_FOUND' } }),
    );

    // Act
    const phone = await fetch('/api/i/user/me/mod/session/sess-phone', { method: 'DELETE' });
    const other = await fetch('/api/i/user/me/mod/session/sess-other', { method: 'DELETE' });

    // Assess
    expect([phone.status, other.status]).toEqual([200, 404]);
    expect(api.calls(routes.endSession, { sessionId: 'sess-phone' })).toHaveLength(1);
    expect(api.calls(routes.endSession)).toHaveLength(2);
  });

  it.each([
    ['a success the response schema refuses', { body: { userId: 'user-sam' } }],
    ['an error without a code', { status: 500, body: { message: 'Boom' } }],
  ])('fails the request when a stub answers %s', async (_case, reply) => {
    // Prepare: a reply the types refuse too; the check at run time covers replies built loosely.
    stubRoutes(stubRoute(routes.blockUser, reply as never));

    // Act
    const response = post('/api/i/user/me/mod/interact-user/user-sam/block', {});

    // Assess
    await expect(response).rejects.toThrow(/^The stub of POST \/api\/i\/user\/me\/mod\/interact-user\/\{userId\}\/block answers/);
  });
});
