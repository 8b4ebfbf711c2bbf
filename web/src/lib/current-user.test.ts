import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane } from '../test/render-shell';
import { stubRoute, stubRoutes } from '../test/stub-routes';
import { fetchCurrentUser, mayBeSignedIn } from './current-user';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('who is signed in', () => {
  it('may be signed in only when the login left its hint cookie, whatever the page embeds', () => {
    // Prepare
    const data = document.createElement('script');
    data.id = 'app-data';
    data.type = 'application/json';
    data.textContent = JSON.stringify({ ssoToken: 'tok-123' });
    document.body.append(data);
    const withoutHint = mayBeSignedIn();

    // Act
    document.cookie = 'ssoh=1; Path=/';

    // Assess
    expect(withoutHint).toBe(false);
    expect(mayBeSignedIn()).toBe(true);
  });

  it('asks nobody for a visitor (no hint cookie): no request that could only answer 401', async () => {
    // Prepare
    const api = stubRoutes(stubRoute(routes.getMe, { body: jane }));

    // Act
    const user = await fetchCurrentUser();

    // Assess
    expect(user).toBeNull();
    expect(api.calls(routes.getMe)).toHaveLength(0);
  });

  it('asks when the login left its hint cookie', async () => {
    // Prepare
    document.cookie = 'ssoh=1; Path=/';
    const api = stubRoutes(stubRoute(routes.getMe, { body: jane }));

    // Act
    const user = await fetchCurrentUser();

    // Assess
    expect(user).toEqual(jane);
    expect(api.calls(routes.getMe)).toHaveLength(1);
  });

  it('drops the hint when the session behind it has ended, so the next page asks nobody', async () => {
    // Prepare
    document.cookie = 'ssoh=1; Path=/';
    const api = stubRoutes(stubRoute(routes.getMe, { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }));

    // Act
    const user = await fetchCurrentUser();
    await fetchCurrentUser();

    // Assess
    expect(user).toBeNull();
    expect(document.cookie).not.toContain('ssoh=');
    expect(api.calls(routes.getMe)).toHaveLength(1);
  });
});
