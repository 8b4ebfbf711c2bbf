import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CurrentUser, currentUserQueryKey } from '../../../lib/current-user';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { routes } from '@shared/routes';
import { type RouteStub, type StubReply, stubRoute } from '../../../test/stub-routes';
import {
  accountOverview,
  janeFull,
  proSubscription,
  publicUser,
  shopDashboard,
  stubAccountApi,
} from '../test-utils/account-fixtures';
import { deferred } from '../test-utils/stub-api';
import { MePage } from './me-page';

function renderMe(stubs: RouteStub[] = [], signedIn: CurrentUser | null = jane) {
  const api = stubAccountApi(...stubs);
  const shell = renderShell({ path: '/me', user: signedIn, pages: [{ path: 'me', Component: MePage }] });
  return { ...shell, api, user: userEvent.setup() };
}

function page() {
  return within(screen.getByRole('main'));
}

async function section(name: string) {
  return within(await page().findByRole('region', { name }));
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('MePage: states', () => {
  it('asks an anonymous visitor to log in, and the button opens the login modal', async () => {
    // Prepare
    const { user, api } = renderMe([], null);
    expect(page().getByRole('heading', { level: 1, name: 'Log in to see your account' })).toBeInTheDocument();

    // Act
    await user.click(page().getByRole('button', { name: 'Log in' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(api.calls(routes.getAccount)).toHaveLength(0);
  });

  it('shows a spinner while the account loads, then the sections', async () => {
    // Prepare
    const answer = deferred<StubReply<typeof routes.getAccount>>();
    renderMe([stubRoute(routes.getAccount, answer.promise)]);

    // Assess
    expect(await page().findByText('Loading your account')).toBeInTheDocument();

    // Act
    answer.resolve({ body: accountOverview() });

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    for (const name of ['Profile', 'Settings', 'Email preferences', 'Sessions', 'Blocked users', 'Delete account']) {
      expect(page().getByRole('region', { name })).toBeInTheDocument();
    }
    expect(page().getByRole('link', { name: 'See your public profile' })).toHaveAttribute('href', '/@jane');
  });

  it("shows the server's error with Retry, which loads the account", async () => {
    // Prepare
    const answers: StubReply<typeof routes.getAccount>[] = [
      { status: 500, body: { message: 'Database unavailable', code: 'INTERNAL' } },
      { body: accountOverview() },
    ];
    const { user, api } = renderMe([stubRoute(routes.getAccount, () => answers.shift() ?? { body: accountOverview() })]);
    const alert = await page().findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Your account could not be loaded' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('Database unavailable');

    // Act
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    expect(api.calls(routes.getAccount)).toHaveLength(2);
  });
});

describe('MePage: profile', () => {
  it('saves only the changed fields and updates the current user', async () => {
    // Prepare
    let current = janeFull;
    const { user, api, queryClient } = renderMe([
      stubRoute(routes.getAccount, () => ({ body: accountOverview({ user: current }) })),
      stubRoute(routes.updateProfile, () => {
        current = { ...janeFull, name: 'Jane Q. Doe', websiteUrl: null };
        return { body: current };
      }),
    ]);
    const profile = await section('Profile');
    expect(profile.getByRole('button', { name: 'Save profile' })).toBeDisabled();

    // Act
    await user.clear(profile.getByRole('textbox', { name: 'Name' }));
    await user.type(profile.getByRole('textbox', { name: 'Name' }), 'Jane Q. Doe');
    await user.clear(profile.getByRole('textbox', { name: 'Website' }));
    await user.click(profile.getByRole('button', { name: 'Save profile' }));

    // Assess
    await waitFor(() => expect(api.calls(routes.updateProfile)).toHaveLength(1));
    expect(api.calls(routes.updateProfile)[0]?.method).toBe('PUT');
    expect(api.calls(routes.updateProfile)[0]?.body).toEqual({ name: 'Jane Q. Doe', websiteUrl: null });
    await waitFor(() => expect(queryClient.getQueryData<CurrentUser>(currentUserQueryKey)?.name).toBe('Jane Q. Doe'));
    await waitFor(() => expect(profile.getByRole('button', { name: 'Save profile' })).toBeDisabled());
  });

  it('shows a 409 next to the username field', async () => {
    // Prepare
    const { user, api } = renderMe([
      stubRoute(routes.checkUsernameIsFree, { body: { username: 'sam', isFree: true, reason: null } }),
      stubRoute(routes.updateProfile, { status: 409, body: { message: 'This username is taken', code: 'USERNAME_TAKEN' } }),
    ]);
    const profile = await section('Profile');
    const username = profile.getByRole('textbox', { name: 'Username' });

    // Act: the check said it was free; someone took it before the save.
    await user.clear(username);
    await user.type(username, 'sam');
    await waitFor(() => expect(username).toHaveAccessibleDescription('Available'));
    await user.click(profile.getByRole('button', { name: 'Save profile' }));

    // Assess
    await waitFor(() => expect(username).toHaveAccessibleDescription('This username is taken'));
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls(routes.updateProfile)[0]?.body).toEqual({ username: 'sam' });
    expect(profile.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid');
  });

  it('shows 400 field errors next to their fields', async () => {
    // Prepare
    const { user } = renderMe([
      stubRoute(routes.updateProfile, {
        status: 400,
        body: {
          message: 'Invalid request: websiteUrl: Must be an http(s) URL',
          code: 'VALIDATION_FAILED',
          fields: [{ in: 'body', field: 'websiteUrl', message: 'Must be an http(s) URL' }],
        },
      }),
    ]);
    const profile = await section('Profile');
    const website = profile.getByRole('textbox', { name: 'Website' });

    // Act
    await user.clear(website);
    await user.type(website, 'ftp://jane.example');
    await user.click(profile.getByRole('button', { name: 'Save profile' }));

    // Assess
    await waitFor(() => expect(website).toHaveAccessibleDescription('Must be an http(s) URL'));
    expect(profile.getByRole('textbox', { name: 'Username' })).not.toHaveAttribute('aria-invalid');
  });

  it('checks the username once typing pauses and says whether it is available', async () => {
    // Prepare
    const { user, api } = renderMe([
      stubRoute(routes.checkUsernameIsFree, (request) => {
        const username = request.url.searchParams.get('username') ?? '';
        return username === 'admin'
          ? { body: { username, isFree: false, reason: 'This username is reserved' } }
          : { body: { username, isFree: true, reason: null } };
      }),
    ]);
    const profile = await section('Profile');
    const username = profile.getByRole('textbox', { name: 'Username' });

    // Act
    await user.clear(username);
    await user.type(username, 'janet');

    // Assess: one request, for the whole word
    expect(username).toHaveAccessibleDescription('Checking…');
    await waitFor(() => expect(username).toHaveAccessibleDescription('Available'));
    expect(api.calls(routes.checkUsernameIsFree).map((request) => request.url.searchParams.get('username'))).toEqual(['janet']);

    // Act
    await user.clear(username);
    await user.type(username, 'admin');

    // Assess
    await waitFor(() => expect(username).toHaveAccessibleDescription('This username is reserved'));
    expect(api.calls(routes.checkUsernameIsFree).map((request) => request.url.searchParams.get('username'))).toEqual([
      'janet',
      'admin',
    ]);
  });

  it('keeps Save disabled while the username breaks the rules, is being checked, or is taken', async () => {
    // Prepare
    const { user, api } = renderMe([
      stubRoute(routes.checkUsernameIsFree, (request) => {
        const username = request.url.searchParams.get('username') ?? '';
        return {
          body: {
            username,
            isFree: username !== 'taken_name',
            reason: username === 'taken_name' ? 'This username is taken' : null,
          },
        };
      }),
    ]);
    const profile = await section('Profile');
    const username = profile.getByRole('textbox', { name: 'Username' });
    const saveButton = profile.getByRole('button', { name: 'Save profile' });

    // Act & Assess: the rules, at once and without asking the server
    await user.clear(username);
    await user.type(username, 'no spaces');
    expect(username).toHaveAccessibleDescription('Use letters, digits and underscores only');
    expect(saveButton).toBeDisabled();

    // Act & Assess: taken
    await user.clear(username);
    await user.type(username, 'taken_name');
    expect(saveButton).toBeDisabled();
    await waitFor(() => expect(username).toHaveAccessibleDescription('This username is taken'));
    expect(saveButton).toBeDisabled();

    // Act & Assess: free
    await user.clear(username);
    await user.type(username, 'free_name');
    await waitFor(() => expect(username).toHaveAccessibleDescription('Available'));
    expect(saveButton).toBeEnabled();
    expect(api.calls(routes.checkUsernameIsFree).map((call) => call.url.searchParams.get('username'))).toEqual([
      'taken_name',
      'free_name',
    ]);
  });

  it('does not check the username the user already has', async () => {
    // Prepare
    const { user, api } = renderMe();
    const username = (await section('Profile')).getByRole('textbox', { name: 'Username' });

    // Act
    await user.type(username, 'x');
    await user.type(username, '{Backspace}');
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Assess
    expect(api.calls(routes.checkUsernameIsFree)).toHaveLength(0);
    expect(username).not.toHaveAccessibleDescription();
  });
});

describe('MePage: settings and email preferences', () => {
  it("saves settings with the user's id", async () => {
    // Prepare
    const settings = { theme: 'dark', defaultBoard: 'growth', activeOnlyByDefault: true } as const;
    const { user, api } = renderMe([stubRoute(routes.upsertSettings, { body: { settings } }, { id: jane.userId })]);
    const region = await section('Settings');

    // Act
    await user.selectOptions(region.getByRole('combobox', { name: 'Theme' }), 'dark');
    await user.selectOptions(region.getByRole('combobox', { name: 'Default board' }), 'Fastest growing');
    await user.click(region.getByRole('checkbox', { name: 'Show active publications only by default' }));
    await user.click(region.getByRole('button', { name: 'Save settings' }));

    // Assess
    await waitFor(() => expect(api.calls(routes.upsertSettings, { id: jane.userId })).toHaveLength(1));
    expect(api.calls(routes.upsertSettings, { id: jane.userId })[0]).toMatchObject({ method: 'POST', body: settings });
    await waitFor(() => expect(api.calls(routes.getAccount)).toHaveLength(2));
    // The saved theme shows at once and is remembered for this device's next visit.
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem('toppubs.theme')).toBe('dark');
  });

  it('shows a chosen theme at once, and goes back to the kept one on leaving without saving', async () => {
    // Prepare
    const { user, api, router } = renderMe([]);
    const region = await section('Settings');
    const theme = region.getByRole('combobox', { name: 'Theme' });
    expect(theme).toHaveAccessibleDescription('Takes effect at once; save to keep it.');

    // Act: pick Dark
    await user.selectOptions(theme, 'Dark');

    // Assess: the page is dark already, nothing saved or remembered yet
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem('toppubs.theme')).toBeNull();
    expect(api.calls(routes.upsertSettings, { id: jane.userId })).toHaveLength(0);

    // Act: leave the page without saving
    await act(() => router.navigate('/'));

    // Assess: back to the theme this device keeps
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
  });

  it('saves email preferences', async () => {
    // Prepare
    const emailPreferences = { productUpdates: true, weeklyDigest: false, notificationEmails: true };
    const { user, api } = renderMe([stubRoute(routes.updateEmailPreferences, { body: { emailPreferences } })]);
    const region = await section('Email preferences');
    expect(region.getByRole('checkbox', { name: 'Product updates' })).toBeChecked();

    // Act
    await user.click(region.getByRole('checkbox', { name: 'Weekly digest' }));
    await user.click(region.getByRole('button', { name: 'Save email preferences' }));

    // Assess
    await waitFor(() => expect(api.calls(routes.updateEmailPreferences)).toHaveLength(1));
    expect(api.calls(routes.updateEmailPreferences)[0]).toMatchObject({ method: 'PUT', body: emailPreferences });
  });

  it('says when saving failed', async () => {
    // Prepare
    const { user } = renderMe([
      stubRoute(routes.updateEmailPreferences, { status: 503, body: { message: 'Try again later', code: 'UNAVAILABLE' } }),
    ]);
    const region = await section('Email preferences');

    // Act
    await user.click(region.getByRole('checkbox', { name: 'Product updates' }));
    await user.click(region.getByRole('button', { name: 'Save email preferences' }));

    // Assess: the choice the user made is still there to save again.
    expect(await region.findByRole('alert')).toHaveTextContent('Saving failed: Try again later');
    expect(region.getByRole('checkbox', { name: 'Product updates' })).not.toBeChecked();
    expect(region.getByRole('button', { name: 'Save email preferences' })).toBeEnabled();
  });

  it('offers Save only once something changed, says Saved after it, and forgets that at the next change', async () => {
    // Prepare
    const emailPreferences = { productUpdates: false, weeklyDigest: true, notificationEmails: true };
    const { user } = renderMe([stubRoute(routes.updateEmailPreferences, { body: { emailPreferences } })]);
    const region = await section('Email preferences');
    const saveButton = region.getByRole('button', { name: 'Save email preferences' });
    expect(saveButton).toBeDisabled();

    // Act
    await user.click(region.getByRole('checkbox', { name: 'Product updates' }));
    await user.click(saveButton);

    // Assess
    await waitFor(() => expect(region.getByRole('status')).toHaveTextContent('Saved'));
    expect(saveButton).toBeDisabled();

    // Act
    await user.click(region.getByRole('checkbox', { name: 'Weekly digest' }));

    // Assess
    expect(region.getByRole('status')).toHaveTextContent('');
    expect(saveButton).toBeEnabled();
  });
});

describe('MePage: sessions and blocked users', () => {
  it('marks this device and logs out another one with DELETE on its id', async () => {
    // Prepare
    const { user, api } = renderMe([stubRoute(routes.endSession, { body: { ended: true } }, { sessionId: 'sess-phone' })]);
    const region = await section('Sessions');
    const items = await region.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Chrome on macOS');
    expect(items[0]).toHaveTextContent('This device');
    expect(within(items[0]!).queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Safari on iPhone');
    expect(items[1]).not.toHaveTextContent('This device');
    // The person reads their device, not the user-agent string it sent.
    expect(region.queryByText(/Mozilla\/5\.0/)).not.toBeInTheDocument();

    // Act
    await user.click(within(items[1]!).getByRole('button', { name: 'Log out' }));

    // Assess
    await waitFor(() => expect(api.calls(routes.endSession, { sessionId: 'sess-phone' })).toHaveLength(1));
    expect(api.calls(routes.endSession, { sessionId: 'sess-phone' })[0]?.method).toBe('DELETE');
    await waitFor(() => expect(api.calls(routes.listSessions)).toHaveLength(2));
  });

  it('unblocks a user and the list updates', async () => {
    // Prepare
    const sam = publicUser();
    let blocked = [sam];
    const { user, api } = renderMe([
      stubRoute(routes.getAccount, () => ({ body: accountOverview({ blockedUsers: blocked }) })),
      stubRoute(
        routes.unblockUser,
        () => {
          blocked = [];
          return { body: { userId: sam.userId, blocked: false } } as const;
        },
        { userId: sam.userId },
      ),
    ]);
    const region = await section('Blocked users');
    expect(region.getByRole('link', { name: '@sam' })).toHaveAttribute('href', '/@sam');

    // Act
    await user.click(region.getByRole('button', { name: 'Unblock' }));

    // Assess
    expect(await region.findByText('You have not blocked anyone.')).toBeInTheDocument();
    expect(api.calls(routes.unblockUser, { userId: sam.userId })[0]?.method).toBe('POST');
  });
});

describe('MePage: delete account', () => {
  async function openDeleteDialog(stubs: RouteStub[]) {
    const rendered = renderMe(stubs);
    const region = await section('Delete account');
    await rendered.user.click(region.getByRole('button', { name: 'Delete account…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete your account?' }));
    return { ...rendered, dialog };
  }

  it('needs the username typed, and on RECENT_LOGIN_REQUIRED offers to log in again', async () => {
    // Prepare
    const message = 'Log in again to delete your account: your login is older than 15 minutes.';
    const { user, api, dialog } = await openDeleteDialog([
      stubRoute(routes.deleteAccount, { status: 403, body: { message, code: 'RECENT_LOGIN_REQUIRED' } }),
    ]);
    const confirm = await dialog.findByRole('textbox', { name: 'Type jane to confirm' });
    expect(dialog.getByRole('button', { name: 'Delete account' })).toBeDisabled();

    // Act
    await user.type(confirm, 'jan');

    // Assess
    expect(dialog.getByRole('button', { name: 'Delete account' })).toBeDisabled();

    // Act
    await user.type(confirm, 'e');
    await user.click(dialog.getByRole('button', { name: 'Delete account' }));

    // Assess
    expect(await dialog.findByRole('alert')).toHaveTextContent(message);
    expect(api.calls(routes.deleteAccount)[0]?.method).toBe('DELETE');

    // Act
    await user.click(dialog.getByRole('button', { name: 'Log in again' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Delete your account?' })).not.toBeInTheDocument();
  });

  it('deletes, forgets the current user and goes home', async () => {
    // Prepare
    const { user, dialog, queryClient, router } = await openDeleteDialog([
      stubRoute(routes.deleteAccount, { body: { deleted: true } }),
    ]);

    // Act
    await user.type(await dialog.findByRole('textbox', { name: 'Type jane to confirm' }), 'jane');
    await user.click(dialog.getByRole('button', { name: 'Delete account' }));

    // Assess
    expect(await page().findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(queryClient.getQueryData(currentUserQueryKey)).toBeNull();
    expect(await screen.findByText('Your account was deleted', {}, { timeout: 8_000 })).toBeInTheDocument();
  });

  it('says, before asking for the username, that a renewing Pro plan is canceled without refund and the shop closes', async () => {
    // Prepare
    const { dialog } = await openDeleteDialog([
      stubRoute(routes.getActiveSubscription, { body: proSubscription() }),
      stubRoute(routes.showMerchantDashboard, { body: shopDashboard(0) }),
    ]);

    // Act
    const consequences = await dialog.findByRole('list', { name: 'What happens to your plan and shop' });

    // Assess
    expect(
      within(consequences)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Your Pro plan is canceled: nothing more is charged, Pro ends with your account, and the time already paid for (paid to December 25, 2026) is not refunded.',
      'Your shop “Jane’s Prints” closes with your account: it is no longer shown to anyone and sells nothing.',
    ]);
    expect(dialog.getByRole('textbox', { name: 'Type jane to confirm' })).toBeInTheDocument();
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says a canceled Pro plan’s paid time ends with the account, unrefunded', async () => {
    // Prepare
    const canceled = proSubscription({ status: 'Canceled', nextBillingDate: null, canceledAt: '2026-12-01T10:00:00.000Z' });
    const { dialog } = await openDeleteDialog([stubRoute(routes.getActiveSubscription, { body: canceled })]);

    // Act
    const consequences = await dialog.findByRole('list', { name: 'What happens to your plan and shop' });

    // Assess
    expect(consequences).toHaveTextContent(
      'Your canceled Pro plan ends with your account: the time already paid for (paid to December 25, 2026) is not refunded.',
    );
    expect(consequences).not.toHaveTextContent('shop');
  });

  it('says up front that a shop still billing subscribers must end them first, and asks for no username', async () => {
    // Prepare
    const { dialog, api } = await openDeleteDialog([stubRoute(routes.showMerchantDashboard, { body: shopDashboard(2, 1) })]);

    // Act
    const refusal = await dialog.findByRole('alert');

    // Assess
    expect(refusal).toHaveTextContent(
      'Your shop “Jane’s Prints” still bills 3 subscribers, so your account cannot be deleted yet.',
    );
    expect(refusal).toHaveTextContent('Cancel their subscriptions in your shop’s Braintree account first');
    expect(dialog.queryByRole('textbox', { name: 'Type jane to confirm' })).not.toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Delete account' })).toBeDisabled();
    expect(api.calls(routes.deleteAccount)).toHaveLength(0);
  });
});
