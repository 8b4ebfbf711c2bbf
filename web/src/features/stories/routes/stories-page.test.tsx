import '../../../test/dom-polyfills';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../../../shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { Story } from '../api/story-keys';
import { StoriesPage } from './stories-page';

const ana = { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null };

const story = (id: string, overrides: Partial<Story> = {}): Story => ({
  id,
  url: `https://blog.example.com/${id}`,
  canonicalUrl: `https://blog.example.com/${id}`,
  title: `Story ${id}`,
  description: null,
  imageUrl: null,
  siteName: 'Ship Notes',
  author: null,
  publishedAt: null,
  source: 'page',
  fetchProblem: null,
  sharer: ana,
  claimedAuthor: null,
  review: { state: 'none', submittedAt: null, decidedAt: null },
  likeCount: 3,
  createdAt: '2026-11-24T10:00:00.000Z',
  currentUserRelation: { didRedirect: true, isSharer: false, didUpvote: false },
  ...overrides,
});

function renderStories(options: {
  path?: string;
  user?: typeof jane | null;
  hot?: StubAnswer<typeof routes.readHotFeed>;
  like?: StubAnswer<typeof routes.likeStory>;
}) {
  const user = options.user === undefined ? jane : options.user;
  const api = stubRoutes(
    stubRoute(routes.readHotFeed, options.hot ?? { body: { items: [story('s1')], nextCursor: null } }),
    stubRoute(routes.readFollowingFeed, { body: { items: [], nextCursor: null } }),
    stubRoute(
      routes.likeStory,
      options.like ??
        ((request) => ({
          body: {
            story: story(request.params.id ?? '', {
              likeCount: 4,
              currentUserRelation: { didRedirect: true, isSharer: false, didUpvote: true },
            }),
          },
        })),
    ),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    // The login modal asks for a bot check whenever it opens.
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  renderShell({ path: options.path ?? '/stories', user, pages: [{ path: 'stories/:feed?', Component: StoriesPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('StoriesPage', () => {
  it('shows each story with its site, sharer and a link out through the redirect route', async () => {
    // Prepare
    const { page } = renderStories({});

    // Assess
    const card = await page.findByRole('article', { name: 'Story s1' });
    expect(within(card).getByRole('link', { name: 'Story s1' })).toHaveAttribute('href', '/api/i/stories/story/s1/go');
    expect(within(card).getByRole('link', { name: 'Ana Lima' })).toHaveAttribute('href', '/@ana');
    expect(card).toHaveTextContent('Ship Notes');
  });

  it('likes at once, then shows what the server answered', async () => {
    // Prepare
    const { api, user, page } = renderStories({});
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await within(card).findByRole('button', { name: 'Unlike: 4 likes' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls(routes.likeStory)[0]?.params).toEqual({ id: 's1', status: 'on' });
  });

  it('puts the like back when the server refuses it, and says why', async () => {
    // Prepare
    const { user, page } = renderStories({
      like: { status: 503, body: { message: 'So many people are liking this story right now.', code: 'SERVICE_UNAVAILABLE' } },
    });
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await within(card).findByRole('alert')).toHaveTextContent('So many people are liking this story right now.');
    expect(within(card).getByRole('button', { name: 'Like: 3 likes' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('asks to read a story before liking it, and never lets the sharer like their own', async () => {
    // Prepare
    const { page } = renderStories({
      hot: {
        body: {
          items: [
            story('unread', { currentUserRelation: { didRedirect: false, isSharer: false, didUpvote: false } }),
            story('mine', { currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false } }),
          ],
          nextCursor: null,
        },
      },
    });

    // Assess
    const unread = await page.findByRole('article', { name: 'Story unread' });
    expect(within(unread).getByRole('button', { name: /^Like/ })).toBeDisabled();
    expect(unread).toHaveTextContent('Read the story to like it.');
    const mine = page.getByRole('article', { name: 'Story mine' });
    expect(within(mine).getByRole('button', { name: /^Like/ })).toBeDisabled();
  });

  it("opens the login modal for a visitor's like", async () => {
    // Prepare
    const { user, page } = renderStories({ user: null });
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('asks a visitor to log in for the following feed', async () => {
    // Prepare
    const { page } = renderStories({ user: null, path: '/stories/following' });

    // Assess
    expect(await page.findByRole('heading', { name: 'Log in to see stories from people you follow' })).toBeInTheDocument();
  });
});
