import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubbedRequest, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makeStory } from '../test-utils/fixtures';
import { SitePage } from './site-page';
import { StoriesPage } from './stories-page';

const onAlpha = (id: string, title: string) =>
  makeStory(id, {
    title,
    url: `https://www.alpha.example/${id}`,
    canonicalUrl: `https://www.alpha.example/${id}`,
    siteName: 'Alpha',
  });

/** The site page at `path`, with alpha.example's stories: newest and hottest in other orders, the newest in two pages. */
function renderSite(path: string) {
  const answer = (request: StubbedRequest) => {
    if (request.params.host !== 'alpha.example') {
      return { status: 404, body: { message: `No story has been shared from ${request.params.host} yet.`, code: 'NOT_FOUND' } };
    }
    const site = { host: 'alpha.example', storyCount: 3 };
    if (request.url.searchParams.get('sort') === 'hot') {
      return { body: { site, items: [onAlpha('a2', 'Riser'), onAlpha('a3', 'Fresh'), onAlpha('a1', 'Old')], nextCursor: null } };
    }
    return request.url.searchParams.get('cursor') === 'page-2'
      ? { body: { site, items: [onAlpha('a1', 'Old')], nextCursor: null } }
      : { body: { site, items: [onAlpha('a3', 'Fresh'), onAlpha('a2', 'Riser')], nextCursor: 'page-2' } };
  };
  const api = stubRoutes(
    stubRoute(routes.readSiteFeed, answer),
    stubRoute(routes.readHotFeed, { body: { items: [onAlpha('a2', 'Riser')], nextCursor: null } }),
    stubRoute(routes.getMe, { body: jane }),
  );
  renderShell({
    path,
    user: jane,
    pages: [
      { path: 'stories/site/:host/:sort?', Component: SitePage },
      { path: 'stories/:feed?', Component: StoriesPage },
    ],
  });
  return { api, user: userEvent.setup(), main: () => within(screen.getByRole('main')) };
}

/** The story titles in the order shown. */
const titles = () =>
  within(screen.getByRole('main'))
    .getAllByRole('article')
    .map((card) => within(card).getByRole('heading', { level: 2 }).textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SitePage', () => {
  it("shows the site's count in the heading and its stories newest first, page by page", async () => {
    // Prepare
    const { api, user, main } = renderSite('/stories/site/alpha.example');

    // Act
    expect(await main().findByRole('heading', { level: 1, name: '3 stories from alpha.example' })).toBeInTheDocument();
    await user.click(main().getByRole('button', { name: 'Show more' }));

    // Assess
    await main().findByRole('article', { name: 'Old' });
    expect(titles()).toEqual(['Fresh', 'Riser', 'Old']);
    expect(main().getByRole('link', { name: 'Newest' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls(routes.readSiteFeed).map((request) => request.url.search)).toEqual(['?sort=new', '?sort=new&cursor=page-2']);
  });

  it('switches to the hottest stories of the site', async () => {
    // Prepare
    const { user, main } = renderSite('/stories/site/alpha.example');
    await main().findByRole('article', { name: 'Fresh' });

    // Act
    await user.click(main().getByRole('link', { name: 'Hottest' }));

    // Assess
    await main().findByRole('article', { name: 'Old' });
    expect(titles()).toEqual(['Riser', 'Fresh', 'Old']);
    expect(main().getByRole('link', { name: 'Hottest' })).toHaveAttribute('aria-current', 'page');
    expect(main().getByRole('heading', { level: 1, name: '3 stories from alpha.example' })).toBeInTheDocument();
  });

  it('opens www. and capitals as the site itself', async () => {
    // Prepare
    const { api, main } = renderSite('/stories/site/WWW.Alpha.example/hot');

    // Assess
    expect(await main().findByRole('heading', { level: 1, name: '3 stories from alpha.example' })).toBeInTheDocument();
    expect(main().getByRole('link', { name: 'Hottest' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls(routes.readSiteFeed).map((request) => request.params.host)).toEqual(['alpha.example']);
  });

  it('says plainly when nobody shared from a site, or when the address is no site', async () => {
    // Act
    const unknown = renderSite('/stories/site/nobody.example');
    const noSite = await unknown.main().findByRole('heading', { level: 1, name: 'No stories from nobody.example' });

    // Assess
    expect(noSite).toBeInTheDocument();
    expect(unknown.main().getByText('Nobody has shared a story from this site yet.')).toBeInTheDocument();
    expect(unknown.main().getByRole('link', { name: 'See every story' })).toHaveAttribute('href', '/stories');
  });

  it('refuses an address that is no site name without asking the server', async () => {
    // Act
    const { api, main } = renderSite('/stories/site/not_a_site');

    // Assess
    expect(await main().findByRole('heading', { level: 1, name: 'No stories from not_a_site' })).toBeInTheDocument();
    expect(main().getByText('That is not a site name (such as example.com).')).toBeInTheDocument();
    expect(api.calls(routes.readSiteFeed)).toEqual([]);
  });

  it("leads from a story card's host to its site page", async () => {
    // Prepare
    const { user, main } = renderSite('/stories');
    const card = await main().findByRole('article', { name: 'Riser' });

    // Act
    expect(card).toHaveTextContent('Alpha (alpha.example)');
    await user.click(within(card).getByRole('link', { name: 'alpha.example' }));

    // Assess
    expect(await main().findByRole('heading', { level: 1, name: '3 stories from alpha.example' })).toBeInTheDocument();
  });
});
