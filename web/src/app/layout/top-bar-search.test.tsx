import { setScreenWidth } from '../../test/dom-polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { RankedPublication } from '@shared/schemas/ranking';
import { makeFeedOnlyPublication, makePublication } from '../../features/ranking/test-utils/fixtures';
import { stubRoute, stubRoutes } from '../../test/stub-routes';
import { renderShell } from '../../test/render-shell';

const catalogue: RankedPublication[] = [
  makePublication(1, { name: 'Glass Poetry', slug: 'glass-poetry', followers: 120_400 }),
  makePublication(7, { name: 'Glassworks Weekly', slug: 'glassworks-weekly', followers: 8_100 }),
  makePublication(40, { name: 'The Data Letter', slug: 'the-data-letter' }),
  makeFeedOnlyPublication(90, { name: 'Pulse Kitchen', slug: 'pulse-kitchen' }),
];

/** The search route over the catalogue: names where each word of q starts a word, at most `limit`. */
function searchApi(reply?: { status: number; body: { message: string; code: string } }) {
  return stubRoutes(
    stubRoute(routes.searchPubs, ({ url }) => {
      if (reply) return reply;
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit'));
      const matches = catalogue.filter((pub) => {
        const words = pub.name.toLowerCase().split(' ');
        return q.split(' ').every((part) => words.some((word) => word.startsWith(part)));
      });
      return {
        body: {
          query: q,
          items: matches.slice(0, limit),
          total: matches.length,
          pageInfo: {
            from: 0,
            limit,
            page: 1,
            total: matches.length,
            sortOrder: 'desc' as const,
            hasMore: matches.length > limit,
          },
          generatedAt: '2026-11-21T01:41:24.893Z',
        },
      };
    }),
  );
}

function searchBox() {
  return within(screen.getByRole('banner')).getByRole('combobox', { name: 'Search publications' });
}

/**
 * Points at the box, which downloads its suggesting code, waits for that code to take the plain
 * box's place, and clicks into it. (Typing while the code is still on its way is the e2e test's.)
 */
async function focusSearchBox(user: ReturnType<typeof userEvent.setup>) {
  await user.hover(searchBox());
  await waitFor(() => expect(searchBox()).toHaveAttribute('aria-controls'));
  await user.click(searchBox());
  expect(searchBox()).toHaveFocus();
}

beforeEach(() => setScreenWidth(1280));
afterEach(() => vi.unstubAllGlobals());

describe('the top bar search', () => {
  it('suggests the most followed matches as a name is typed, with the followers and a way to every result', async () => {
    // Prepare
    const api = searchApi();
    const user = userEvent.setup();
    renderShell();
    await focusSearchBox(user);

    // Act
    await user.type(searchBox(), 'glass');

    // Assess
    const list = await screen.findByRole('listbox', { name: 'Suggested publications' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['GPGlass Poetry120.4K followers', 'GWGlassworks Weekly8.1K followers', 'See all 2 results for "glass"']),
    );
    expect(searchBox()).toHaveAttribute('aria-expanded', 'true');
    expect([...list.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Glass', 'Glass']);
    // Debounced, and only a handful asked for.
    const asked = api.calls(routes.searchPubs).map(({ url }) => [url.searchParams.get('q'), url.searchParams.get('limit')]);
    expect(asked.at(-1)).toEqual(['glass', '6']);
    expect(asked.length).toBeLessThan(5);
  });

  it('labels a suggested publication without a follower count "Feed only", not 0 followers', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    renderShell();
    await focusSearchBox(user);

    // Act
    await user.type(searchBox(), 'pulse');

    // Assess
    const option = await screen.findByRole('option', { name: /Pulse Kitchen/ });
    expect(within(option).getByText('Feed only')).toHaveAttribute('title', 'No follower count: ranked by recent activity');
    expect(option).not.toHaveTextContent(/followers$/);
  });

  it('keeps every keystroke and the caret where it is typed, mid-word too', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    renderShell();
    await focusSearchBox(user);
    await user.type(searchBox(), 'Glass Poetry');
    const box = searchBox() as HTMLInputElement;
    // Every value the page itself writes into the box: a write of an older value (one render
    // behind the keystroke) is what loses the next key a fast typist presses.
    const written: string[] = [];
    const valueSetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    Object.defineProperty(box, 'value', {
      configurable: true,
      get: Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.get,
      set(next: string) {
        written.push(String(next));
        valueSetter?.call(this, next);
      },
    });

    // Act: back to just after "Glass", then one more letter there
    await user.type(box, 'y', { initialSelectionStart: 5, initialSelectionEnd: 5 });

    // Assess
    expect(box).toHaveValue('Glassy Poetry');
    expect(box.selectionStart).toBe(6);
    expect(written.filter((value) => value !== 'Glassy Poetry')).toEqual([]);
  });

  it('suggests for the words typed before its code arrived, without another keystroke', async () => {
    // Prepare
    searchApi();
    renderShell();
    const standIn = searchBox();

    // Act: focused and typed into at once, before the suggesting code has replaced the stand-in
    act(() => standIn.focus());
    fireEvent.change(standIn, { target: { value: 'glass' } });

    // Assess
    expect(standIn).not.toHaveAttribute('aria-controls');
    const list = await screen.findByRole('listbox', { name: 'Suggested publications' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(3));
    expect(searchBox()).toHaveAttribute('aria-expanded', 'true');
    expect(searchBox()).toHaveValue('glass');
    expect(searchBox()).toHaveFocus();
  });

  it('opens the highlighted publication on Enter and empties the box', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    const { router } = renderShell();
    await focusSearchBox(user);
    await user.type(searchBox(), 'glass');
    await screen.findByRole('option', { name: /Weekly/ });

    // Act
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');

    // Assess
    await waitFor(() => expect(router.state.location.pathname).toBe('/pub/glassworks-weekly'));
    expect(searchBox()).toHaveValue('');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('opens the full search for the words on Enter when no suggestion is chosen, and from "See all"', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    const { router } = renderShell();
    await focusSearchBox(user);
    await user.type(searchBox(), 'data letter');
    await screen.findByRole('option', { name: /Letter/ });

    // Act
    await user.keyboard('{Enter}');

    // Assess
    await screen.findByRole('heading', { name: 'Search page' });
    expect(router.state.location.search).toBe('?q=data+letter');

    // Act: back home, then the last option
    await router.navigate('/');
    await screen.findByRole('heading', { name: 'Home page' });
    await focusSearchBox(user);
    await user.type(searchBox(), 'glass');
    await user.click(await screen.findByRole('option', { name: 'See all 2 results for "glass"' }));

    // Assess
    await waitFor(() => expect(router.state.location.search).toBe('?q=glass'));
  });

  it('says when nothing matches, and when suggestions fail that Enter still searches', async () => {
    // Prepare
    searchApi();
    const user = userEvent.setup();
    renderShell();
    await focusSearchBox(user);

    // Act
    await user.type(searchBox(), 'zzz');

    // Assess
    expect(await screen.findByText('No publications match "zzz"')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();

    // Prepare: the API now fails
    searchApi({ status: 503, body: { message: 'The database is unavailable', code: 'SERVICE_UNAVAILABLE' } });

    // Act
    await user.clear(searchBox());
    await user.type(searchBox(), 'qq');

    // Assess
    expect(await screen.findByText('Suggestions are unavailable. Press Enter to search.')).toBeInTheDocument();
  });

  it('closes the suggestions on Escape and asks for nothing while the box is empty', async () => {
    // Prepare
    const api = searchApi();
    const user = userEvent.setup();
    renderShell();
    await focusSearchBox(user);

    // Assess: focused but empty
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(api.calls(routes.searchPubs)).toHaveLength(0);

    // Act
    await user.type(searchBox(), 'glass');
    await screen.findByRole('option', { name: /Glass Poetry/ });
    await user.keyboard('{Escape}');

    // Assess
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(searchBox()).toHaveAttribute('aria-expanded', 'false');
  });

  it("is a link to the search page where the bar has no room, and gives way to the search page's own box", () => {
    // Prepare
    setScreenWidth(1000);

    // Act
    const { unmount } = renderShell();

    // Assess
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Search publications' })).toHaveAttribute('href', '/search');
    expect(within(banner).queryByRole('combobox')).not.toBeInTheDocument();
    unmount();

    // Act
    setScreenWidth(1280);
    renderShell({ path: '/search' });

    // Assess
    expect(within(screen.getByRole('banner')).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Search publications' })).not.toBeInTheDocument();
  });
});
