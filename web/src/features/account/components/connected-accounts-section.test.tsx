import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { MePage } from '../routes/me-page';
import { routes } from '@shared/routes';
import { type RouteStub, stubRoute } from '../../../test/stub-routes';
import { accountOverview, stubAccountApi } from '../test-utils/account-fixtures';

const TWITTER_AUTH_URL = 'https://twitter.com/i/oauth2/authorize?state=abc';

const google = { provider: 'google' as const, displayName: 'jane@example.com', connectedAt: '2024-03-15T12:00:00.000Z' };
const twitter = { provider: 'twitter' as const, displayName: '@jane', connectedAt: '2024-04-01T12:00:00.000Z' };

function renderMe(stubs: RouteStub[] = []) {
  const api = stubAccountApi(...stubs);
  renderShell({ path: '/me', user: jane, pages: [{ path: 'me', Component: MePage }] });
  return { api, user: userEvent.setup() };
}

async function section() {
  return within(await within(screen.getByRole('main')).findByRole('region', { name: 'Connected accounts' }));
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('ConnectedAccountsSection', () => {
  it('lists the connected accounts with their dates, and offers no Connect once Twitter is connected', async () => {
    // Prepare
    renderMe([stubRoute(routes.getAccount, { body: accountOverview({ connectedAccounts: [google, twitter] }) })]);

    // Assess
    const connections = within((await section()).getByRole('list', { name: 'Connected accounts' }));
    const items = connections.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Google · jane@example.com')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/^Connected /)).toBeInTheDocument();
    expect(within(items[0]!).queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
    expect(within(items[1]!).getByText('Twitter · @jane')).toBeInTheDocument();
    expect(within(items[1]!).getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect((await section()).queryByRole('button', { name: 'Connect Twitter' })).not.toBeInTheDocument();
  });

  it('Connect Twitter asks for the URL (returning to /me) and goes there', async () => {
    // Prepare
    const location = { href: 'http://localhost/me' };
    const { api, user } = renderMe([stubRoute(routes.twitterLoginUrl, { body: { url: TWITTER_AUTH_URL } })]);
    const connect = (await section()).getByRole('button', { name: 'Connect Twitter' });
    vi.stubGlobal('location', location);

    // Act
    await user.click(connect);

    // Assess
    await waitFor(() => expect(location.href).toBe(TWITTER_AUTH_URL));
    const [call] = api.calls(routes.twitterLoginUrl);
    expect(call?.url.searchParams.get('returnTo')).toBe('/me');
  });

  it("Disconnect calls DELETE and shows the server's message when Twitter is the only login", async () => {
    // Prepare
    const message = 'Twitter is your only way to log in. Add an email address first.';
    const { api, user } = renderMe([
      stubRoute(routes.getAccount, { body: accountOverview({ connectedAccounts: [twitter] }) }),
      stubRoute(routes.disconnectTwitter, { status: 409, body: { message, code: 'ONLY_LOGIN_METHOD' } }),
    ]);

    // Act
    await user.click((await section()).getByRole('button', { name: 'Disconnect' }));

    // Assess
    expect(await (await section()).findByRole('alert')).toHaveTextContent(message);
    expect(api.calls(routes.disconnectTwitter).map((request) => request.method)).toEqual(['DELETE']);
  });

  it('Disconnect reloads the account overview when it succeeds', async () => {
    // Prepare
    let connectedAccounts = [google, twitter];
    const { api, user } = renderMe([
      stubRoute(routes.getAccount, () => ({ body: accountOverview({ connectedAccounts }) })),
      stubRoute(routes.disconnectTwitter, () => {
        connectedAccounts = [google];
        return { body: { disconnected: true } };
      }),
    ]);

    // Act
    await user.click((await section()).getByRole('button', { name: 'Disconnect' }));

    // Assess
    expect(await (await section()).findByRole('button', { name: 'Connect Twitter' })).toBeInTheDocument();
    expect((await section()).queryByText('Twitter · @jane')).not.toBeInTheDocument();
    expect(api.calls(routes.getAccount)).toHaveLength(2);
  });

  it('confirms a Twitter connection by its handle when the page opens after it, and cleans the address', async () => {
    // Prepare
    stubAccountApi(stubRoute(routes.getAccount, { body: accountOverview({ connectedAccounts: [google, twitter] }) }));

    // Act
    const { router } = renderShell({ path: '/me#twitter-connected', user: jane, pages: [{ path: 'me', Component: MePage }] });

    // Assess
    expect(await screen.findByText('Twitter connected: @jane')).toBeInTheDocument();
    expect((await section()).getByText('Twitter · @jane')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.hash).toBe(''));
  });
});
