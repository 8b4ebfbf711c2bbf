import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../lib/current-user';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { routes } from '@shared/routes';
import { type RouteStub, stubRoute } from '../../../test/stub-routes';
import { accountOverview, janePublic, publicUser, stubAccountApi, stubPublicUser } from '../test-utils/account-fixtures';
import { pageRequests } from '../test-utils/stub-api';
import { ProfilePage } from './profile-page';

const sam = publicUser({ websiteUrl: 'https://sam.example/' });

/** The profile page at `path`; these stubs answer first, then @sam's public user and the account. */
function renderProfile(path: string, stubs: RouteStub[] = [], signedIn: CurrentUser | null = jane) {
  const api = stubAccountApi(...stubs, stubPublicUser(sam));
  const shell = renderShell({ path, user: signedIn, pages: [{ path: ':handle', Component: ProfilePage }] });
  return { ...shell, api, user: userEvent.setup() };
}

function page() {
  return within(screen.getByRole('main'));
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('ProfilePage', () => {
  it('shows the name, username, join month, website and a title', async () => {
    // Prepare
    const { api } = renderProfile('/@sam', [], null);

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'Sam Lee' })).toBeInTheDocument();
    expect(page().getByText('@sam')).toBeInTheDocument();
    expect(page().getByText('March 2024')).toHaveAttribute('datetime', sam.createdAt);
    const website = page().getByRole('link', { name: 'sam.example' });
    expect(website).toHaveAttribute('href', 'https://sam.example/');
    expect(website).toHaveAttribute('rel', 'noopener nofollow');
    expect(page().getByText('SL')).toBeInTheDocument();
    expect(page().getByText('12 followers · 3 following')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sam Lee (@sam) · TopPubs'));
    expect(api.calls(routes.getUserByIdOrUsername, { id: 'sam' })).toHaveLength(1);
  });

  it('says there is no one by that name on a 404, with a link home', async () => {
    // Prepare
    renderProfile('/@ghost');

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'There is no one called @ghost' })).toBeInTheDocument();
    expect(page().getByRole('link', { name: 'Back to the rankings' })).toHaveAttribute('href', '/');
  });

  it("shows the server's error with Retry for other failures", async () => {
    // Prepare
    renderProfile('/@sam', [
      stubRoute(routes.getUserByIdOrUsername, { status: 500, body: { message: 'Boom', code: 'INTERNAL' } }),
    ]);

    // Assess
    const alert = await page().findByRole('alert');
    expect(alert).toHaveTextContent('Boom');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('blocks and then unblocks the user', async () => {
    // Prepare
    let blocked: (typeof sam)[] = [];
    const { user, api } = renderProfile('/@sam', [
      stubRoute(routes.getAccount, () => ({ body: accountOverview({ blockedUsers: blocked }) })),
      stubRoute(
        routes.blockUser,
        () => {
          blocked = [sam];
          return { body: { userId: sam.userId, blocked: true } } as const;
        },
        { userId: sam.userId },
      ),
      stubRoute(
        routes.unblockUser,
        () => {
          blocked = [];
          return { body: { userId: sam.userId, blocked: false } } as const;
        },
        { userId: sam.userId },
      ),
    ]);
    await page().findByRole('heading', { level: 1, name: 'Sam Lee' });
    await waitFor(() => expect(page().getByRole('button', { name: 'Block' })).toBeEnabled());

    // Act
    await user.click(page().getByRole('button', { name: 'Block' }));

    // Assess
    await waitFor(() => expect(page().getByRole('button', { name: 'Unblock' })).toBeEnabled());
    expect(api.calls(routes.blockUser, { userId: sam.userId })).toHaveLength(1);

    // Act
    await user.click(page().getByRole('button', { name: 'Unblock' }));

    // Assess
    await waitFor(() => expect(page().getByRole('button', { name: 'Block' })).toBeEnabled());
    expect(api.calls(routes.unblockUser, { userId: sam.userId })).toHaveLength(1);
  });

  it('reports the user with a reason and details', async () => {
    // Prepare
    const { user, api } = renderProfile('/@sam', [stubRoute(routes.reportObject, { body: { reported: true, isNew: true } })]);
    await page().findByRole('heading', { level: 1, name: 'Sam Lee' });

    // Act
    await user.click(page().getByRole('button', { name: 'Report' }));
    const form = within(page().getByRole('form', { name: 'Report @sam' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'Reason' }), 'Impersonation');
    await user.type(form.getByRole('textbox', { name: 'Details (optional)' }), 'Pretends to be me');
    await user.click(form.getByRole('button', { name: 'Send report' }));

    // Assess
    await waitFor(() => expect(page().queryByRole('form', { name: 'Report @sam' })).not.toBeInTheDocument());
    expect(api.calls(routes.reportObject)[0]).toMatchObject({
      method: 'POST',
      body: { objectType: 'user', objectId: sam.userId, reason: 'impersonation', details: 'Pretends to be me' },
    });
  });

  it.each(['Block', 'Report'])('opens the login modal when an anonymous visitor presses %s', async (action) => {
    // Prepare
    const { user, api } = renderProfile('/@sam', [], null);
    await page().findByRole('heading', { level: 1, name: 'Sam Lee' });

    // Act
    await user.click(page().getByRole('button', { name: action }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { hidden: true, name: 'Report @sam' })).not.toBeInTheDocument();
    expect(pageRequests(api.requests).filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('follows at once, counting the new follower, then keeps what the server answered', async () => {
    // Prepare
    const { user, api } = renderProfile('/@sam', [
      stubRoute(routes.filterFollowingIds, { body: { ids: [] } }),
      stubRoute(routes.followUser, { body: { userId: sam.userId, following: true, followerCount: 13, followingCount: 3 } }),
    ]);
    const follow = await page().findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(follow).toBeEnabled());

    // Act
    await user.click(follow);

    // Assess
    expect(await page().findByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    expect(page().getByText('13 followers · 3 following')).toBeInTheDocument();
    expect(api.calls(routes.followUser)[0]?.params).toEqual({ userId: sam.userId, status: 'on' });
  });

  it('puts the follow back when the server refuses it', async () => {
    // Prepare
    const { user } = renderProfile('/@sam', [
      stubRoute(routes.filterFollowingIds, { body: { ids: [sam.userId] } }),
      stubRoute(routes.followUser, { status: 403, body: { message: 'You cannot follow this user.', code: 'FORBIDDEN' } }),
    ]);
    const following = await page().findByRole('button', { name: 'Following' });

    // Act
    await user.click(following);

    // Assess
    expect(await screen.findByText('Unfollowing failed: You cannot follow this user.')).toBeInTheDocument();
    expect(page().getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    expect(page().getByText('12 followers · 3 following')).toBeInTheDocument();
  });

  it('asks a visitor to log in before following', async () => {
    // Prepare
    const { user, api } = renderProfile('/@sam', [], null);

    // Act
    await user.click(await page().findByRole('button', { name: 'Follow' }));

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(api.calls(routes.followUser)).toHaveLength(0);
  });

  it('offers to edit instead of block or report on your own profile', async () => {
    // Prepare
    renderProfile('/@jane', [stubPublicUser(janePublic)]);

    // Assess
    expect(await page().findByRole('link', { name: 'Edit your profile' })).toHaveAttribute('href', '/me');
    expect(page().queryByRole('button', { name: 'Block' })).not.toBeInTheDocument();
    expect(page().queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
  });

  it('shows what the app composes under the profile, for the person it shows, and nothing for someone unknown', async () => {
    // Prepare
    const stories = vi.fn((shown: { userId: string; username: string }) => (
      <section aria-label="Composed stories">
        Stories of @{shown.username} ({shown.userId})
      </section>
    ));
    stubAccountApi(stubPublicUser(sam));
    const { router } = renderShell({
      path: '/@sam',
      user: jane,
      pages: [{ path: ':handle', element: <ProfilePage stories={stories} /> }],
    });

    // Assess
    expect(await page().findByRole('region', { name: 'Composed stories' })).toHaveTextContent('Stories of @sam (user-sam)');

    // Act
    await act(() => router.navigate('/@ghost'));

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'There is no one called @ghost' })).toBeInTheDocument();
    expect(page().queryByRole('region', { name: 'Composed stories' })).not.toBeInTheDocument();
    expect(stories.mock.calls.every(([shown]) => shown.username === 'sam')).toBe(true);
  });
});
