import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { setCurrentUser } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { Notification } from '../api/notification-keys';
import { NotificationsPage } from './notifications-page';

const ana = { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null };

const notification = (id: string, overrides: Partial<Notification> = {}): Notification => ({
  id,
  kind: 'story-liked',
  app: 'toppubs',
  object: { type: 'story', id: `story-${id}`, title: `Story ${id}`, detail: null },
  actors: [ana],
  actorCount: 1,
  seen: false,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

const counts = { numUnseenNotifications: 0, ssoAppNumUnseenNotifications: 0, total: 0 };

function renderNotifications(options: {
  screen: StubAnswer<typeof routes.getNotificationsScreen>;
  seen?: StubAnswer<typeof routes.listSeenNotifications>;
  user?: typeof jane | null;
}) {
  const api = stubRoutes(
    stubRoute(routes.getNotificationsScreen, options.screen),
    stubRoute(routes.listSeenNotifications, options.seen ?? { body: { items: [], nextCursor: null } }),
    stubRoute(routes.markNotificationsSeen, { body: { marked: 2, counts } }),
    stubRoute(
      routes.getMe,
      options.user === null ? { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } } : { body: jane },
    ),
  );
  const shell = renderShell({
    path: '/notifications',
    user: options.user === undefined ? jane : options.user,
    pages: [{ path: 'notifications', Component: NotificationsPage }],
  });
  return { api, queryClient: shell.queryClient, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NotificationsPage', () => {
  it('lists new notifications, then earlier ones, each linking to what it is about', async () => {
    // Prepare
    const { page } = renderNotifications({
      screen: {
        body: {
          unseen: { items: [notification('1', { actorCount: 3 })], nextCursor: null },
          seen: {
            items: [
              notification('2', {
                seen: true,
                kind: 'user-followed',
                object: { type: 'user', id: 'me', title: null, detail: null },
              }),
            ],
            nextCursor: null,
          },
          counts,
        },
      },
    });

    // Assess
    const fresh = await page.findByRole('list', { name: 'New notifications' });
    expect(within(fresh).getByRole('link', { name: /Ana Lima and 2 others liked your story “Story 1”/ })).toHaveAttribute(
      'href',
      '/api/i/stories/story/story-1/go',
    );
    const earlier = page.getByRole('list', { name: 'Earlier notifications' });
    expect(within(earlier).getByRole('link', { name: /Ana Lima started following you/ })).toHaveAttribute('href', '/@ana');
  });

  it('marks every new notification seen with one call', async () => {
    // Prepare
    const { api, user, page } = renderNotifications({
      screen: {
        body: {
          unseen: { items: [notification('1'), notification('2')], nextCursor: null },
          seen: { items: [], nextCursor: null },
          counts,
        },
      },
    });

    // Act
    await user.click(await page.findByRole('button', { name: 'Mark all as seen' }));

    // Assess
    await vi.waitFor(() => expect(api.calls(routes.markNotificationsSeen)).toHaveLength(1));
    expect(api.calls(routes.markNotificationsSeen)[0]?.body).toEqual({ ids: ['1', '2'] });
  });

  it('shows older notifications page by page on request', async () => {
    // Prepare
    const { api, user, page } = renderNotifications({
      screen: {
        body: {
          unseen: { items: [], nextCursor: null },
          seen: { items: [notification('1', { seen: true })], nextCursor: 'cursor-2' },
          counts,
        },
      },
      seen: { body: { items: [notification('9', { seen: true })], nextCursor: null } },
    });

    // Act
    await user.click(await page.findByRole('button', { name: 'Show older' }));

    // Assess
    expect(await page.findByRole('link', { name: /Story 9/ })).toBeInTheDocument();
    expect(api.calls(routes.listSeenNotifications)[0]?.url.searchParams.get('cursor')).toBe('cursor-2');
    expect(page.queryByRole('button', { name: 'Show older' })).toBeNull();
  });

  it('shows a notification that arrives while the page is open, when the live count rises', async () => {
    // Prepare
    let reads = 0;
    const { page, queryClient } = renderNotifications({
      screen: () => {
        reads += 1;
        return {
          body: {
            unseen: { items: reads === 1 ? [] : [notification('fresh')], nextCursor: null },
            seen: { items: [], nextCursor: null },
            counts,
          },
        };
      },
    });
    await page.findByRole('heading', { name: 'Nothing here yet' });

    // Act: the bell's count, as a push sets it
    act(() => setCurrentUser(queryClient, { ...jane, numUnseenNotifications: 1 }));

    // Assess
    expect(await page.findByRole('list', { name: 'New notifications' })).toHaveTextContent('Story fresh');
  });

  it('says so when there is nothing, and what will appear: stories, followed publications, transfers, orders', async () => {
    // Prepare
    const empty = { body: { unseen: { items: [], nextCursor: null }, seen: { items: [], nextCursor: null }, counts } };
    const { page } = renderNotifications({ screen: empty });

    // Assess
    expect(await page.findByRole('heading', { name: 'Nothing here yet' })).toBeInTheDocument();
    const kinds = page.getByRole('list', { name: 'What appears here' });
    expect(
      within(kinds)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'likes on the stories you shared, and people who follow you or say they wrote one of them',
      "publications you follow entering a board's top 100, climbing 10 places or more, or posting again",
      'files sent to you, and the first download of files you sent',
      'your orders once paid, and sales in your shop',
      'a subscription payment that failed, or went through again',
    ]);
  });

  it('asks a visitor to log in', async () => {
    // Prepare
    const { page } = renderNotifications({
      screen: { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } },
      user: null,
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'Log in to see your notifications' })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});
