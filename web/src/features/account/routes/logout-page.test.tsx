import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserQueryKey } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { routes } from '@shared/routes';
import { type StubReply, stubRoute } from '../../../test/stub-routes';
import { stubApi } from '../test-utils/stub-api';
import { LogoutPage } from './logout-page';

/** The logout page, the logout route answering `answers` in turn (nothing once they run out). */
function renderLogout(answers: StubReply<typeof routes.logout>[] = [{ body: { loggedOut: true } }]) {
  const api = stubApi(stubRoute(routes.logout, () => answers.shift()));
  const shell = renderShell({ path: '/logout', user: jane, pages: [{ path: 'logout', Component: LogoutPage }] });
  return { ...shell, api, logouts: () => api.calls(routes.logout), user: userEvent.setup() };
}

function page() {
  return within(screen.getByRole('main'));
}

afterEach(() => {
  configure({ reactStrictMode: false });
  vi.unstubAllGlobals();
});

describe('LogoutPage', () => {
  it('logs out once on arrival, forgets the current user and offers the way home', async () => {
    // Prepare: React runs effects twice in strict mode; the page must still log out once
    configure({ reactStrictMode: true });
    window.localStorage.setItem('toppubs.homeBoard', '{"kind":"growth","activeOnly":false}');

    // Act
    const { logouts, queryClient } = renderLogout();

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'You are logged out' })).toBeInTheDocument();
    expect(logouts()).toHaveLength(1);
    expect(logouts()[0]?.method).toBe('GET');
    expect(queryClient.getQueryData(currentUserQueryKey)).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Account menu for jane/ })).not.toBeInTheDocument();
    expect(page().getByRole('link', { name: 'Back to the rankings' })).toHaveAttribute('href', '/');
    // The next person on this device starts from the default board.
    expect(window.localStorage.getItem('toppubs.homeBoard')).toBeNull();
  });

  it('keeps the user and offers to try again when the server fails', async () => {
    // Prepare
    const { logouts, queryClient, user } = renderLogout([
      { status: 500, body: { message: 'Internal error', code: 'INTERNAL' } },
      { body: { loggedOut: true } },
    ]);
    const alert = await page().findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Logging out failed' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('Internal error');
    expect(queryClient.getQueryData(currentUserQueryKey)).toEqual(jane);

    // Act
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'You are logged out' })).toBeInTheDocument();
    expect(logouts()).toHaveLength(2);
    expect(queryClient.getQueryData(currentUserQueryKey)).toBeNull();
  });
});
