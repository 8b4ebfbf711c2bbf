import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ResponseOf, routes } from '@shared/routes';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makeTopic } from '../test-utils/fixtures';
import { renderPages } from '../test-utils/render';

const TOTAL = 100;

/** The show/topics answer for the page and limit a request asks for. */
function topicsScreen(url: URL): ResponseOf<typeof routes.showTopics> {
  const page = Number(url.searchParams.get('page') ?? 1);
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const from = (page - 1) * limit;
  const items = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - from)) }, (_, index) => ({
    ...makeTopic(`topic-${from + index + 1}`, {
      publicationCount: 500 - from - index,
      activeCount: 10,
      totalFollowers: 2_000_000 - (from + index) * 1_000,
    }),
    leaders: [1, 2, 3].map((place) => ({
      slug: `leader-${place}-of-topic-${from + index + 1}`,
      name: `Leader ${place} of Topic ${from + index + 1}`,
      followers: 90_000 - place * 10_000,
      imageUrl: null,
    })),
  }));
  return {
    seo: {
      title: `Topics, page ${page} · TopPubs`,
      description: 'Browse 100 topics.',
      keywords: [],
      imageUrl: '/og/toppubs-1500.png',
    },
    topics: {
      items,
      pageInfo: { from, limit, page, total: TOTAL, sortOrder: 'desc', hasMore: from + limit < TOTAL },
      generatedAt: '2026-11-21T01:41:24.893Z',
    },
  };
}

/** show/topics over 100 topics named topic-1 ... topic-100, biggest first. */
function topicsApi() {
  return stubRoutes(stubRoute(routes.showTopics, ({ url }) => ({ body: topicsScreen(url) })));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TopicsPage', () => {
  it('lists a page of topics with their counts, each linking to its board', async () => {
    // Prepare
    const api = topicsApi();

    // Act
    renderPages('/topics');

    // Assess
    const list = await screen.findByRole('list', { name: 'Topics 1 to 24' });
    // The cards, not the leading publications listed inside each.
    const cards = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(cards).toHaveLength(24);
    expect(within(cards[0]!).getByRole('link', { name: 'Topic 1' })).toHaveAttribute('href', '/topic/topic-1');
    expect(within(cards[0]!).getByText('500')).toBeInTheDocument();
    expect(within(cards[0]!).getByTitle('2,000,000 followers')).toHaveTextContent('2M');
    expect(api.requests[0]?.url.searchParams.get('page')).toBe('1');
    expect(api.requests[0]?.url.searchParams.get('limit')).toBe('24');
  });

  it('shows the publications leading each topic, most followed first, each opening its page', async () => {
    // Prepare
    topicsApi();

    // Act
    renderPages('/topics');

    // Assess
    const list = await screen.findByRole('list', { name: 'Topics 1 to 24' });
    const first = list.firstElementChild as HTMLElement;
    const leaders = within(first).getByRole('list', { name: 'Leading Topic 1 publications' });
    const links = within(leaders).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Leader 1 of Topic 1', 'Leader 2 of Topic 1', 'Leader 3 of Topic 1']);
    expect(links[0]).toHaveAttribute('href', '/pub/leader-1-of-topic-1');
    expect(within(leaders).getByTitle('80,000 followers')).toHaveTextContent('80K');
  });

  it('shows topic names as the API gives them, in their own casing', async () => {
    // Prepare
    stubRoutes(
      stubRoute(routes.showTopics, ({ url }) => {
        const screenData = topicsScreen(url);
        const tags = ['ux', 'aws', 'javascript', 'lgbtq'];
        return {
          body: {
            ...screenData,
            topics: { ...screenData.topics, items: tags.map((tag) => ({ ...makeTopic(tag), leaders: [] })) },
          },
        };
      }),
    );

    // Act
    renderPages('/topics');

    // Assess
    const list = await screen.findByRole('list', { name: 'Topics 1 to 4' });
    expect(
      within(list)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual(['UX', 'AWS', 'JavaScript', 'LGBTQ']);
  });

  it('paginates with real links and opens the next page', async () => {
    // Prepare
    const api = topicsApi();
    const user = userEvent.setup();
    const { router } = renderPages('/topics');
    const pagination = await screen.findByRole('navigation', { name: 'Pagination' });

    // Assess
    expect(within(pagination).getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pagination).getByRole('link', { name: 'Page 2' })).toHaveAttribute('href', '/topics/2');
    expect(within(pagination).getByRole('link', { name: 'Page 5' })).toHaveAttribute('href', '/topics/5');
    expect(within(pagination).queryByRole('link', { name: /Previous/ })).not.toBeInTheDocument();

    // Act
    await user.click(within(pagination).getByRole('link', { name: /Next/ }));

    // Assess
    const list = await screen.findByRole('list', { name: 'Topics 25 to 48' });
    expect(router.state.location.pathname).toBe('/topics/2');
    expect(within(list).getByRole('link', { name: 'Topic 25' })).toBeInTheDocument();
    expect(api.requests.at(-1)?.url.searchParams.get('page')).toBe('2');
    const after = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(after).getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(within(after).getByRole('link', { name: /Previous/ })).toHaveAttribute('href', '/topics');
  });

  it('opens a later page directly from /topics/{page}', async () => {
    // Prepare
    topicsApi();

    // Act
    renderPages('/topics/5');

    // Assess
    expect(await screen.findByRole('list', { name: 'Topics 97 to 100' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Pagination' })).queryByRole('link', { name: /Next/ }),
    ).not.toBeInTheDocument();
  });

  it('shows the not-found state for a page past the end of a 5-page list, with links back', async () => {
    // Prepare
    topicsApi();

    // Act
    renderPages('/topics/99');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'There is no page 99 of topics' })).toBeInTheDocument();
    expect(screen.getByText('The topics end at page 5.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the last page' })).toHaveAttribute('href', '/topics/5');
    expect(screen.getByRole('link', { name: 'Go to the first page of topics' })).toHaveAttribute('href', '/topics');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.title).toBe('Page not found · TopPubs'));
  });

  it('shows the same not-found state for a page that is not a number, without calling the API', async () => {
    // Prepare
    const api = topicsApi();

    // Act
    renderPages('/topics/abc');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'There is no page "abc" of topics' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the first page of topics' })).toHaveAttribute('href', '/topics');
    expect(api.requests).toHaveLength(0);
  });

  it('shows the server message and retries on failure', async () => {
    // Prepare
    let fail = true;
    stubRoutes(
      stubRoute(routes.showTopics, () =>
        fail ? { status: 500, body: { message: 'Topics are being rebuilt.', code: 'INTERNAL' } } : undefined,
      ),
    );
    const user = userEvent.setup();
    renderPages('/topics');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Topics are being rebuilt.');
    fail = false;
    topicsApi();

    // Act
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await screen.findByRole('list', { name: 'Topics 1 to 24' })).toBeInTheDocument();
  });
});
