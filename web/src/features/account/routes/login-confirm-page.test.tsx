import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQueryKey } from '../../../lib/current-user';
import { toast } from '../../../lib/toast';
import { renderShell } from '../../../test/render-shell';
import { routes } from '@shared/routes';
import { type StubReply, stubRoute } from '../../../test/stub-routes';
import { pageRequests, stubApi } from '../test-utils/stub-api';
import { LoginConfirmPage } from './login-confirm-page';

const TOKEN = 'tok_0123456789abcdefghijklmnop';

const confirmedUser = {
  userId: 'u-1',
  username: 'jane',
  name: 'Jane',
  imageUrl: null,
  pennameAccountUrl: 'https://penname.example/account/jane',
  numUnseenNotifications: 0,
  ssoAppNumUnseenNotifications: 0,
  isSuperUser: false,
};

/** The confirm page in the real shell at `path`, the confirm endpoint answering `answer`. */
function renderConfirm(
  path: string,
  answer: StubReply<typeof routes.confirmLoginEmail> = { body: { user: confirmedUser, isNewAccount: false, returnTo: '/' } },
) {
  // The browser's own address, which the page cleans after logging in.
  window.history.replaceState(null, '', path);
  const api = stubApi(stubRoute(routes.confirmLoginEmail, answer));
  const shell = renderShell({ path, pages: [{ path: 'login/confirm', Component: LoginConfirmPage }] });
  return { ...shell, api, confirms: () => api.calls(routes.confirmLoginEmail), user: userEvent.setup() };
}

function page() {
  return within(screen.getByRole('main'));
}

beforeEach(() => {
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('LoginConfirmPage', () => {
  it('asks before logging in: opening the link sends nothing (mail scanners must not spend it)', async () => {
    // Prepare
    const { api } = renderConfirm(`/login/confirm#token=${TOKEN}`);

    // Act
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Assess
    expect(page().getByRole('heading', { level: 1, name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(page().getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('logs in on click: posts the token, sets the user, cleans the URL, says so and goes home', async () => {
    // Prepare
    const { user, confirms, queryClient, router } = renderConfirm(`/login/confirm#token=${TOKEN}`);

    // Act
    await user.click(page().getByRole('button', { name: 'Log in' }));

    // Assess
    expect(await page().findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(confirms()).toHaveLength(1);
    expect(confirms()[0]?.method).toBe('POST');
    expect(confirms()[0]?.body).toEqual({ token: TOKEN });
    expect(queryClient.getQueryData(currentUserQueryKey)).toEqual(confirmedUser);
    expect(router.state.location.pathname).toBe('/');
    expect(window.location.hash).toBe('');
    expect(screen.getByRole('button', { name: /Account menu for jane/ })).toBeInTheDocument();
    expect(await screen.findByText('You are logged in', {}, { timeout: 8_000 })).toBeInTheDocument();
  });

  it('lands back on the page the login started from, as the server answers it', async () => {
    // Prepare
    const { user, router } = renderConfirm(`/login/confirm#token=${TOKEN}`, {
      body: { user: confirmedUser, isNewAccount: false, returnTo: '/topics?page=2' },
    });

    // Act
    await user.click(page().getByRole('button', { name: 'Log in' }));

    // Assess
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/topics?page=2'));
  });

  it("welcomes a new account with 'Welcome to TopPubs'", async () => {
    // Prepare
    const { user } = renderConfirm(`/login/confirm#token=${TOKEN}`, {
      body: { user: confirmedUser, isNewAccount: true, returnTo: '/' },
    });

    // Act
    await user.click(page().getByRole('button', { name: 'Log in' }));

    // Assess
    expect(await page().findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(await screen.findByText('Welcome to TopPubs', {}, { timeout: 8_000 })).toBeInTheDocument();
  });

  it.each([
    ['INVALID_LOGIN_LINK', 'This login link is not valid.'],
    ['LOGIN_LINK_USED', 'This login link was already used. Ask for a new one.'],
    ['LOGIN_LINK_EXPIRED', 'This login link has expired. Ask for a new one.'],
  ])("shows the server's message for %s and offers a new link from the login modal", async (code, message) => {
    // Prepare
    const { user, queryClient } = renderConfirm(`/login/confirm#token=${TOKEN}`, { status: 400, body: { message, code } });

    // Act
    await user.click(page().getByRole('button', { name: 'Log in' }));

    // Assess
    const alert = await page().findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'This login link cannot be used' })).toBeInTheDocument();
    expect(alert).toHaveTextContent(message);
    expect(page().queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
    expect(queryClient.getQueryData(currentUserQueryKey)).toBeNull();

    // Act
    await user.click(within(alert).getByRole('button', { name: 'Send a new link' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
  });

  it.each(['/login/confirm', '/login/confirm#token=', '/login/confirm#other=1'])(
    "says 'This login link is incomplete' for %s and offers a new link",
    async (path) => {
      // Prepare
      const { user, api } = renderConfirm(path);
      expect(page().getByRole('heading', { level: 1, name: 'This login link is incomplete' })).toBeInTheDocument();
      expect(page().queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();

      // Act
      await user.click(page().getByRole('button', { name: 'Send a new link' }));

      // Assess
      expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
      expect(pageRequests(api.requests)).toEqual([]);
    },
  );

  it('keeps the Log in button to try again after a server failure', async () => {
    // Prepare
    const { user, confirms } = renderConfirm(`/login/confirm#token=${TOKEN}`, {
      status: 503,
      body: { message: 'Service unavailable', code: 'UNAVAILABLE' },
    });

    // Act
    await user.click(page().getByRole('button', { name: 'Log in' }));

    // Assess
    expect(await page().findByRole('alert')).toHaveTextContent('Logging in failed: Service unavailable');
    await waitFor(() => expect(page().getByRole('button', { name: 'Log in' })).toBeEnabled());
    expect(confirms()).toHaveLength(1);
  });
});
