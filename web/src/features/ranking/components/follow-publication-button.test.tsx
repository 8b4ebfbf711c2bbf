import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { PublicationPage } from '../routes/publication-page';
import { makePublicationDetail } from '../test-utils/fixtures';

/** The server's list of what the reader follows: what the follow stub last stored. */
const followed = new Set<string>();

function followedItems() {
  const { publication } = makePublicationDetail();
  return [...followed].map(() => ({ ...publication, sparkline: [], followedAt: '2026-11-21T12:00:00.000Z' }));
}

function renderPublication(user: CurrentUser | null, ...stubs: RouteStub[]) {
  followed.clear();
  const api = stubRoutes(
    ...stubs,
    stubRoute(routes.getPublication, { body: makePublicationDetail() }),
    stubRoute(routes.listFollowedPublications, () => ({
      body: { items: followedItems(), generatedAt: '2026-11-21T12:00:00.000Z' },
    })),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    // The login dialog asks for a bot check whenever it opens.
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  renderShell({ path: '/pub/ux-collective', user, pages: [{ path: 'pub/:slug', Component: PublicationPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('Following a publication from its page', () => {
  it('asks a visitor to log in, and follows nothing', async () => {
    // Prepare
    const { api, user, page } = renderPublication(null);

    // Act
    await user.click(await page.findByRole('button', { name: 'Follow' }));

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(api.calls(routes.followPublication)).toHaveLength(0);
    expect(api.calls(routes.listFollowedPublications)).toHaveLength(0);
  });

  it('follows at once on screen, confirms it, and unfollows again', async () => {
    // Prepare
    const { api, user, page } = renderPublication(
      jane,
      stubRoute(routes.followPublication, ({ params }) => {
        if (params.status === 'on') followed.add(params.slug ?? '');
        else followed.delete(params.slug ?? '');
        return { body: { slug: params.slug ?? '', following: params.status === 'on', followerCount: followed.size } };
      }),
    );
    const button = await page.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(button).toBeEnabled());

    // Act
    await user.click(button);

    // Assess
    expect(page.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Following UX Collective. We’ll tell you when it climbs the ranks.')).toBeInTheDocument();
    await user.click(page.getByRole('button', { name: 'Following' }));
    await waitFor(() => expect(page.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false'));
    expect(api.calls(routes.followPublication).map((call) => call.url.pathname)).toEqual([
      '/api/i/toppubs/pub/ux-collective/follow/on',
      '/api/i/toppubs/pub/ux-collective/follow/off',
    ]);
  });

  it('puts the button back and says why when the server refuses', async () => {
    // Prepare
    const message = 'You follow 500 publications, the most we allow. Unfollow one to follow another.';
    const { user, page } = renderPublication(
      jane,
      stubRoute(routes.followPublication, { status: 409, body: { message, code: 'CONFLICT' } }),
    );
    const button = await page.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(button).toBeEnabled());

    // Act
    await user.click(button);

    // Assess
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false');
  });
});
