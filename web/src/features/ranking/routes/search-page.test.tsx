import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makePublication, makeTopic } from '../test-utils/fixtures';
import { renderPages } from '../test-utils/render';

/** The search route over a catalogue, with the server's paging and filters. */
function searchApi(
  catalogue = [
    makePublication(1, { name: 'Glass Poetry', slug: 'glass-poetry' }),
    makePublication(7, { name: 'Glassworks Weekly', slug: 'glassworks-weekly', isActive: false, topics: ['design'] }),
    makePublication(40, { name: 'The Data Letter', slug: 'the-data-letter' }),
  ],
) {
  return stubRoutes(
    stubRoute(routes.searchPubs, ({ url }) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const page = Number(url.searchParams.get('page') ?? 1);
      const topic = url.searchParams.get('topic');
      const matches = catalogue.filter(
        (pub) =>
          pub.name
            .toLowerCase()
            .split(' ')
            .some((word) => word.startsWith(q)) &&
          (url.searchParams.get('active') !== 'true' || pub.isActive) &&
          (!topic || pub.topics.includes(topic)),
      );
      const from = (page - 1) * limit;
      return {
        body: {
          query: q,
          items: matches.slice(from, from + limit),
          total: matches.length,
          pageInfo: {
            from,
            limit,
            page,
            total: matches.length,
            sortOrder: 'desc' as const,
            hasMore: from + limit < matches.length,
          },
          generatedAt: '2026-11-21T01:41:24.893Z',
        },
      };
    }),
    stubRoute(routes.listTopics, {
      body: { items: [makeTopic('design'), makeTopic('technology')], generatedAt: '2026-11-21T01:41:24.893Z' },
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SearchPage', () => {
  it('invites a search and calls nothing while the box is empty', () => {
    // Prepare
    const api = searchApi();

    // Act
    renderPages('/search');

    // Assess
    expect(screen.getByRole('heading', { name: 'Find a publication' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search publications' })).toHaveValue('');
    expect(api.calls(routes.searchPubs)).toHaveLength(0);
  });

  it('puts the typed query in ?q after a pause and lists the results', async () => {
    // Prepare
    const api = searchApi();
    const user = userEvent.setup();
    const { router } = renderPages('/search');

    // Act
    await user.type(screen.getByRole('searchbox', { name: 'Search publications' }), 'glass');

    // Assess
    const table = await screen.findByRole('table', { name: 'Search results for "glass"' });
    expect(router.state.location.search).toBe('?q=glass');
    expect(
      within(table)
        .getAllByRole('link', { name: /^Glass/ })
        .map((link) => link.textContent),
    ).toEqual(['Glass Poetry', 'Glassworks Weekly']);
    expect(screen.getByText('2 results for "glass"')).toBeInTheDocument();
    // The matched part of each name is marked.
    expect([...table.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Glass', 'Glass']);
    // Debounced: one call for the whole word, not one per key.
    expect(api.calls(routes.searchPubs).map(({ url }) => url.searchParams.get('q'))).toEqual(['glass']);
  });

  it('says when nothing matches', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    renderPages('/search');

    // Act
    await user.type(screen.getByRole('searchbox', { name: 'Search publications' }), 'zzz');

    // Assess
    expect(await screen.findByRole('heading', { name: 'No publications match "zzz"' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('runs the search in the URL when the page opens, and clearing the box clears ?q', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    const { router } = renderPages('/search?q=data');
    expect(await screen.findByRole('link', { name: 'The Data Letter' })).toBeInTheDocument();
    const box = screen.getByRole('searchbox', { name: 'Search publications' });
    expect(box).toHaveValue('data');

    // Act
    await user.clear(box);

    // Assess
    expect(await screen.findByRole('heading', { name: 'Find a publication' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('pages through every result, with the page in the address', async () => {
    // Prepare: 120 matches, 50 a page.
    const many = Array.from({ length: 120 }, (_, index) => makePublication(index + 1, { name: `Data Pub ${index + 1}` }));
    searchApi(many);
    const user = userEvent.setup();
    const { router } = renderPages('/search?q=data');
    await screen.findByText('120 results for "data" · page 1 of 3');

    // Act
    await user.click(screen.getByRole('link', { name: 'Page 3' }));

    // Assess
    expect(await screen.findByText('120 results for "data" · page 3 of 3')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=data&page=3');
    const rows = within(screen.getByRole('table', { name: 'Search results for "data"' })).getAllByRole('row');
    expect(rows).toHaveLength(21);
    expect(rows[1]).toHaveTextContent('Data Pub 101');
  });

  it('narrows by topic and to active publications, and starts again at the first page', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    const { router } = renderPages('/search?q=glass&page=2');
    const filters = within(await screen.findByRole('group', { name: 'Filters' }));
    await screen.findByRole('option', { name: 'Design' });

    // Act
    await user.selectOptions(filters.getByRole('combobox', { name: 'Topic' }), 'design');

    // Assess
    expect(await screen.findByText('1 result for "glass" (in Design)')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=glass&topic=design');

    // Act
    await user.click(filters.getByRole('checkbox', { name: 'Active only' }));

    // Assess: Glassworks Weekly is dormant.
    expect(await screen.findByRole('heading', { name: 'No publications match "glass" with these filters' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=glass&topic=design&active=true');
  });
});
