import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../../../shared/routes';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makePublication } from '../test-utils/fixtures';
import { renderPages } from '../test-utils/render';

function searchApi() {
  const catalogue = [
    makePublication(1, { name: 'Glass Poetry', slug: 'glass-poetry' }),
    makePublication(7, { name: 'Glassworks Weekly', slug: 'glassworks-weekly' }),
    makePublication(40, { name: 'The Data Letter', slug: 'the-data-letter' }),
  ];
  return stubRoutes(
    stubRoute(routes.searchPubs, ({ url }) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const items = catalogue.filter((pub) =>
        pub.name
          .toLowerCase()
          .split(' ')
          .some((word) => word.startsWith(q)),
      );
      return { body: { query: q, items, total: items.length, generatedAt: '2026-11-21T01:41:24.893Z' } };
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
});
