import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { FollowedPublication } from '@shared/schemas/ranking';
import { jane, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makeFeedOnlyPublication, makePublication } from '../test-utils/fixtures';
import { FollowedPublicationsList } from './followed-publications-list';

function followed(rank: number, name: string): FollowedPublication {
  const { rank: _rank, ...standing } = makePublication(rank, { name, slug: name.toLowerCase().replace(/ /g, '-') });
  return { ...standing, ranks: { followers: rank, growth: null }, followedAt: '2026-11-20T10:00:00.000Z' };
}

function renderList(items: FollowedPublication[]) {
  let stored = [...items];
  const api = stubRoutes(
    stubRoute(routes.listFollowedPublications, () => ({ body: { items: stored, generatedAt: '2026-11-21T12:00:00.000Z' } })),
    stubRoute(routes.followPublication, ({ params }) => {
      stored = stored.filter((item) => item.slug !== params.slug);
      return { body: { slug: params.slug ?? '', following: false, followerCount: 0 } };
    }),
    stubRoute(routes.getMe, { body: jane }),
  );
  renderShell({ path: '/mine', user: jane, pages: [{ path: 'mine', element: <FollowedPublicationsList /> }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FollowedPublicationsList', () => {
  it('lists what the reader follows, each to its page, and unfollows one on the spot', async () => {
    // Prepare
    const { page, user, api } = renderList([followed(3, 'Glass Poetry'), followed(40, 'Data Letter')]);
    const list = await page.findByRole('list', { name: 'Publications you follow' });

    // Act
    await user.click(within(list).getByRole('button', { name: 'Follow Data Letter' }));

    // Assess
    expect(within(list).getByRole('link', { name: 'Glass Poetry' })).toHaveAttribute('href', '/pub/glass-poetry');
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('#3 most followed');
    await waitFor(() => expect(within(list).queryByRole('link', { name: 'Data Letter' })).not.toBeInTheDocument());
    expect(api.calls(routes.followPublication).map((call) => call.url.pathname)).toEqual([
      '/api/i/toppubs/pub/data-letter/follow/off',
    ]);
  });

  it('labels a followed feed "Feed only" with its last post, never as 0 followers', async () => {
    // Prepare
    const { rank: _rank, ...standing } = makeFeedOnlyPublication(5, {
      name: 'Pulse Kitchen',
      slug: 'pulse-kitchen',
      latestPostAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    const feed: FollowedPublication = {
      ...standing,
      ranks: { followers: null, growth: null },
      followedAt: '2026-11-20T10:00:00.000Z',
    };
    const { page } = renderList([feed, followed(3, 'Glass Poetry')]);

    // Act
    const list = await page.findByRole('list', { name: 'Publications you follow' });

    // Assess
    const [feedItem, countedItem] = within(list).getAllByRole('listitem');
    expect(within(feedItem!).getByText('Feed only')).toHaveAttribute('title', 'No follower count: ranked by recent activity');
    expect(feedItem).toHaveTextContent('· last post 2 days ago');
    expect(feedItem).not.toHaveTextContent(/followers ·/);
    expect(countedItem).toHaveTextContent(/followers · \+\d+ in 30 days · #3 most followed/);
  });

  it('says how to follow when the reader follows nothing', async () => {
    // Prepare
    const { page } = renderList([]);

    // Assess
    expect(await page.findByText(/You follow no publications yet/)).toBeInTheDocument();
  });
});
