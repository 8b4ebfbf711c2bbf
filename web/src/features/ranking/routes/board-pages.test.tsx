import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { BoardKind } from '@shared/schemas/ranking';
import { ERROR_RETRY_MS } from '../../../lib/query-client';
import { type StubbedRequest, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { jane } from '../../../test/render-shell';
import { makeBoardPage, makeBoardScreen, makeFeedOnlyPublication, makePublication, makeTopic } from '../test-utils/fixtures';
import { FakeIntersectionObserver, installBrowserPolyfills, renderPages } from '../test-utils/render';

/** Answers every board call from a board of `total` publications, honouring from/limit. */
function boardApi(total = 1500) {
  const page = ({ url }: StubbedRequest, kind: BoardKind) =>
    makeBoardPage({
      kind,
      activeOnly: url.searchParams.get('active') === 'true',
      topic: url.searchParams.get('topic'),
      from: Number(url.searchParams.get('from') ?? 0),
      limit: Number(url.searchParams.get('limit') ?? 20),
      total,
    });
  const screenOf = (request: StubbedRequest, kind: BoardKind) => {
    const topic = request.url.searchParams.get('topic');
    return makeBoardScreen(page(request, kind), topic ? makeTopic(topic) : null);
  };
  return stubRoutes(
    stubRoute(routes.showHome, (request) => ({ body: screenOf(request, 'followers') })),
    stubRoute(routes.showGrowth, (request) => ({ body: screenOf(request, 'growth') })),
    stubRoute(routes.loadPubs, (request) => ({ body: page(request, 'followers') })),
    stubRoute(routes.loadGrowthPubs, (request) => ({ body: page(request, 'growth') })),
    stubRoute(routes.showActivity, (request) => ({ body: screenOf(request, 'activity') })),
    stubRoute(routes.loadActivityPubs, (request) => ({ body: page(request, 'activity') })),
  );
}

function bodyRows() {
  return screen.getAllByRole('row').filter((row) => row.getAttribute('aria-rowindex') !== '1');
}

beforeEach(() => {
  installBrowserPolyfills();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('board pages', () => {
  it('renders the ranked rows in order with rank, outbound link, followers, growth and dormant label', async () => {
    // Prepare
    const items = [
      makePublication(1, { name: 'Glass Poetry', followers: 267_933, gained30d: 367, growthPct30d: 0.14, isActive: false }),
      makePublication(2, { name: "Lena's Press", followers: 45_321, gained30d: -1_064, growthPct30d: -0.41 }),
      makePublication(3, { name: 'Fresh Start', followers: 1_234_567, gained30d: 50, growthPct30d: null, latestPostAt: null }),
    ];
    const api = stubRoutes(stubRoute(routes.showHome, { body: makeBoardScreen({ ...makeBoardPage({ total: 3 }), items }) }));

    // Act
    renderPages('/');

    // Assess
    const table = await screen.findByRole('table', { name: 'Most followed publications' });
    const [first, second, third] = within(table)
      .getAllByRole('row')
      .filter((row) => row.getAttribute('aria-rowindex') !== '1');
    expect(screen.getByRole('heading', { level: 1, name: 'Most followed publications' })).toBeInTheDocument();

    expect(within(first!).getAllByRole('cell')[0]).toHaveTextContent('1');
    expect(within(first!).getByRole('link', { name: 'Glass Poetry' })).toHaveAttribute('href', '/pub/publication-1');
    const outbound = within(first!).getByRole('link', { name: 'Visit Glass Poetry (opens in a new tab)' });
    expect(outbound).toHaveAttribute('href', 'https://publication-1.example.com/');
    expect(outbound).toHaveAttribute('target', '_blank');
    expect(outbound).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(first!).getByTitle('267,933 followers')).toHaveTextContent('267.9K');
    expect(within(first!).getByTitle('+367 followers in 30 days')).toHaveTextContent('+367');
    expect(within(first!).getByText('+0.14%')).toBeInTheDocument();
    expect(within(first!).getByText('Dormant')).toBeInTheDocument();

    expect(within(second!).getAllByRole('cell')[0]).toHaveTextContent('2');
    expect(within(second!).getByTitle('45,321 followers')).toHaveTextContent('45.3K');
    expect(within(second!).getByText('-1.1K')).toBeInTheDocument();
    expect(within(second!).getByText('-0.41%')).toBeInTheDocument();
    expect(within(second!).queryByText('Dormant')).not.toBeInTheDocument();

    expect(within(third!).getByTitle('1,234,567 followers')).toHaveTextContent('1.2M');
    expect(within(third!).getByTitle(/started from zero/)).toHaveTextContent('–');
    expect(within(third!).getByText('No posts yet')).toBeInTheDocument();

    const [request] = api.calls(routes.showHome);
    expect(request?.url.searchParams.get('limit')).toBe('50');
    expect(request?.url.searchParams.has('active')).toBe(false);
    await waitFor(() => expect(document.title).toBe('Most followed publications · TopPubs'));
  });

  it('shows skeleton rows while the board loads', async () => {
    // Prepare
    boardApi();

    // Act
    renderPages('/');

    // Assess
    expect(screen.getByRole('status', { name: 'Loading publications' })).toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading publications' })).not.toBeInTheDocument();
  });

  it('links the views to their sibling routes and follows them', async () => {
    // Prepare
    const api = boardApi();
    const user = userEvent.setup();
    const { router } = renderPages('/active');
    await screen.findByRole('table');

    // Act
    const views = screen.getByRole('navigation', { name: 'Board views' });
    const links = Object.fromEntries(
      within(views)
        .getAllByRole('link')
        .map((link) => [link.textContent, link]),
    );

    // Assess
    expect(links['Most followed']).toHaveAttribute('href', '/active');
    expect(links['Most followed']).toHaveAttribute('aria-current', 'page');
    expect(links['Fastest growing']).toHaveAttribute('href', '/growing/active');
    expect(links['Recently active']).toHaveAttribute('href', '/recent/active');
    expect(links['All']).toHaveAttribute('href', '/');
    expect(links['Active only']).toHaveAttribute('aria-current', 'page');
    expect(links['Following']).toHaveAttribute('href', '/following');
    expect(links['Following']).not.toHaveAttribute('aria-current');

    // Act
    await user.click(links['Fastest growing']!);

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Fastest growing active publications' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/growing/active');
    const [growth] = api.calls(routes.showGrowth);
    expect(growth?.url.searchParams.get('active')).toBe('true');
  });

  it("opens `/` on a signed-in reader's default board, and shows most followed when they pick it", async () => {
    // Prepare
    const api = boardApi();
    const user = userEvent.setup();
    const reader = { ...jane, userId: 'u-reader' };
    const { router } = renderPages('/', { user: reader, settings: { defaultBoard: 'growth', activeOnlyByDefault: true } });

    // Assess: the home board
    expect(await screen.findByRole('heading', { level: 1, name: 'Fastest growing active publications' })).toBeInTheDocument();
    expect(api.calls(routes.showGrowth)[0]?.url.searchParams.get('active')).toBe('true');
    expect(api.calls(routes.showHome)).toHaveLength(0);

    // Act: Most followed, then All, from the board controls
    const views = screen.getByRole('navigation', { name: 'Board views' });
    await user.click(within(views).getByRole('link', { name: 'Most followed' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Board views' })).getByRole('link', { name: 'All' }));

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Most followed publications' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(window.localStorage.getItem('toppubs.homeBoard')).toBe('{"kind":"growth","activeOnly":true}');
    window.localStorage.clear();
  });

  it('opens `/` on most followed for a visitor', async () => {
    // Prepare: no current user: GET me/v is not stubbed, and its 404 means nobody is signed in.
    const api = boardApi();

    // Act
    renderPages('/');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Most followed publications' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(routes.showHome)).toHaveLength(1));
    expect(api.calls(routes.showGrowth)).toHaveLength(0);
  });

  it('asks for active publications only on the active pages', async () => {
    // Prepare
    const api = boardApi();

    // Act
    renderPages('/active');

    // Assess
    await screen.findByRole('table', { name: 'Most followed active publications' });
    const [request] = api.calls(routes.showHome);
    expect(request?.url.searchParams.get('active')).toBe('true');
    expect(request?.url.searchParams.has('topic')).toBe(false);
  });

  it('shows a topic with its counts, the topic request and links back to all topics', async () => {
    // Prepare
    const api = boardApi(120);

    // Act
    renderPages('/topic/data-science');

    // Assess
    await screen.findByRole('table', { name: 'Data Science: most followed' });
    expect(screen.getByRole('heading', { level: 1, name: 'Data Science' })).toBeInTheDocument();
    const [request] = api.calls(routes.showHome);
    expect(request?.url.searchParams.get('topic')).toBe('data-science');
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'All topics' }),
    ).toHaveAttribute('href', '/topics');
    expect(screen.getByText('Publications', { selector: 'dt' }).nextElementSibling).toHaveTextContent('120');
    expect(screen.getByText('Followers', { selector: 'dt' }).nextElementSibling).toHaveTextContent('1.9M');
    const views = screen.getByRole('navigation', { name: 'Board views' });
    expect(within(views).getByRole('link', { name: 'Fastest growing' })).toHaveAttribute('href', '/topic/data-science/growing');
    expect(within(views).getByRole('link', { name: 'Active only' })).toHaveAttribute('href', '/topic/data-science?active=true');
    const chips = screen.getByRole('navigation', { name: 'Popular topics' });
    expect(within(chips).getByRole('link', { name: /Data Science/ })).toHaveAttribute('aria-current', 'page');
    expect(within(chips).getByRole('link', { name: /Startups/ })).toHaveAttribute('href', '/topic/startups');
  });

  it('names a topic board in the topic’s own casing, from the first render on', async () => {
    // Prepare
    boardApi(40);

    // Act
    renderPages('/topic/ux');

    // Assess: before the API answers, and after.
    expect(screen.getByRole('heading', { level: 1, name: 'UX' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'UX: most followed' });
    expect(screen.getByRole('heading', { level: 1, name: 'UX' })).toBeInTheDocument();
    expect(screen.getByText('The most followed UX publications.')).toBeInTheDocument();
  });

  it('opens /topic/Technology as technology, with the canonical address', async () => {
    // Prepare
    const api = boardApi(40);

    // Act
    const { router } = renderPages('/topic/Technology/growing?active=true');

    // Assess
    await screen.findByRole('table', { name: 'Technology: fastest growing' });
    expect(router.state.location.pathname).toBe('/topic/technology/growing');
    expect(router.state.location.search).toBe('?active=true');
    expect(api.calls(routes.showGrowth)[0]?.url.searchParams.get('topic')).toBe('technology');
  });

  it('counts active publications on the topic chips of an active board, and keeps the chips on active boards', async () => {
    // Prepare
    boardApi();

    // Act
    renderPages('/active');

    // Assess: makeTopic has 120 publications, 48 of them active.
    const chips = await screen.findByRole('navigation', { name: 'Popular topics' });
    const startups = within(chips).getByRole('link', { name: /Startups/ });
    expect(startups).toHaveTextContent('48');
    expect(startups).toHaveAttribute('title', '48 active publications');
    expect(startups).toHaveAttribute('href', '/topic/startups?active=true');
  });

  it('asks the growth board for a topic, active only, on /topic/{tag}/growing?active=true', async () => {
    // Prepare
    const api = boardApi(40);

    // Act
    renderPages('/topic/python/growing?active=true');

    // Assess
    await screen.findByRole('table');
    const [request] = api.calls(routes.showGrowth);
    expect(request?.url.searchParams.get('topic')).toBe('python');
    expect(request?.url.searchParams.get('active')).toBe('true');
    expect(api.calls(routes.showHome)).toHaveLength(0);
  });

  it('says there is no such topic when the API answers NOT_FOUND', async () => {
    // Prepare
    stubRoutes(
      stubRoute(routes.showHome, { status: 404, body: { message: "There is no topic called 'nope'.", code: 'NOT_FOUND' } }),
    );

    // Act
    renderPages('/topic/nope');

    // Assess
    expect(await screen.findByRole('heading', { name: 'There is no topic called "nope"' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse all topics' })).toHaveAttribute('href', '/topics');
    expect(screen.getByRole('link', { name: 'Go to the most followed publications' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('shows the server message and a Retry button on failure, and retrying refetches', async () => {
    // Prepare
    let failures = 1;
    const api = stubRoutes(
      stubRoute(routes.showGrowth, () =>
        failures-- > 0
          ? { status: 503, body: { message: 'The ranking store is unavailable.', code: 'UNAVAILABLE' } }
          : { body: makeBoardScreen(makeBoardPage({ kind: 'growth', total: 5 })) },
      ),
    );
    const user = userEvent.setup();
    renderPages('/growing');

    // Act
    const alert = await screen.findByRole('alert');

    // Assess
    expect(alert).toHaveTextContent('The ranking store is unavailable.');
    expect(screen.getByRole('heading', { level: 1, name: 'Fastest growing publications' })).toBeInTheDocument();

    // Act
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await screen.findByRole('table', { name: 'Fastest growing publications' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(5);
    expect(api.calls(routes.showGrowth)).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the error state of a failing API after one retry, ERROR_RETRY_MS later', async () => {
    // Prepare
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubRoutes(
      stubRoute(routes.showHome, { status: 503, body: { message: 'The ranking store is unavailable.', code: 'UNAVAILABLE' } }),
    );

    // Act: the app's own retry policy, on a clock the test moves.
    renderPages('/', undefined, { appRetries: true });
    await waitFor(() => expect(api.calls(routes.showHome)).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(ERROR_RETRY_MS - 100));
    const callsBeforeTheDelay = api.calls(routes.showHome).length;
    const alertBeforeTheDelay = screen.queryByRole('alert');
    await act(() => vi.advanceTimersByTimeAsync(100));
    const alert = await screen.findByRole('alert');

    // Assess
    expect(callsBeforeTheDelay).toBe(1);
    expect(alertBeforeTheDelay).not.toBeInTheDocument();
    expect(alert).toHaveTextContent('The ranking store is unavailable.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(screen.queryByRole('status', { name: 'Loading publications' })).not.toBeInTheDocument();
    expect(api.calls(routes.showHome)).toHaveLength(2);
  });

  it('shows an unknown topic at once: a 404 is not retried', async () => {
    // Prepare
    const api = stubRoutes(
      stubRoute(routes.showHome, { status: 404, body: { message: "There is no topic called 'nope'.", code: 'NOT_FOUND' } }),
    );
    const started = performance.now();

    // Act
    renderPages('/topic/nope', undefined, { appRetries: true });
    await screen.findByRole('heading', { level: 1, name: 'There is no topic called "nope"' });

    // Assess
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(api.calls(routes.showHome)).toHaveLength(1);
  });

  it('appends load/pubs pages of 50 and keeps the rows in the DOM bounded', async () => {
    // Prepare
    const api = boardApi(1500);
    const user = userEvent.setup();
    renderPages('/');
    await screen.findByText('Showing 50 of 1,500');

    // Act
    for (let page = 1; page <= 6; page++) {
      await user.click(screen.getByRole('button', { name: 'Load more' }));
      await screen.findByText(`Showing ${50 * (page + 1)} of 1,500`);
    }

    // Assess
    const loads = api.calls(routes.loadPubs);
    expect(loads.map(({ url }) => url.searchParams.get('from'))).toEqual(['50', '100', '150', '200', '250', '300']);
    expect(loads.every(({ url }) => url.searchParams.get('limit') === '50')).toBe(true);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '1501');
    expect(bodyRows().length).toBeGreaterThan(5);
    expect(bodyRows().length).toBeLessThanOrEqual(40);

    // Act: scroll far down the loaded board.
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 300 * 73 });
    act(() => {
      fireEvent.scroll(window);
    });

    // Assess: the appended rows are the ones rendered now, still a bounded few.
    await waitFor(() => expect(screen.getByRole('link', { name: 'Publication 301' })).toBeInTheDocument());
    expect(screen.queryByRole('link', { name: 'Publication 1' })).not.toBeInTheDocument();
    expect(bodyRows().length).toBeLessThanOrEqual(40);
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  });

  it('loads the next page when the end of the list scrolls into view', async () => {
    // Prepare
    const api = boardApi(1500);
    renderPages('/growing');
    await screen.findByText('Showing 50 of 1,500');

    // Act
    act(() => FakeIntersectionObserver.intersectAll());

    // Assess
    expect(await screen.findByText('Showing 100 of 1,500')).toBeInTheDocument();
    expect(api.calls(routes.loadGrowthPubs).map(({ url }) => url.searchParams.get('from'))).toEqual(['50']);
  });

  it('keeps the loaded rows and offers Retry when a further page fails', async () => {
    // Prepare
    let failLoad = true;
    const api = stubRoutes(
      stubRoute(routes.showHome, { body: makeBoardScreen(makeBoardPage({ total: 120 })) }),
      stubRoute(routes.loadPubs, ({ url }) =>
        failLoad
          ? { status: 500, body: { message: 'Database timeout', code: 'INTERNAL' } }
          : { body: makeBoardPage({ from: Number(url.searchParams.get('from')), total: 120 }) },
      ),
    );
    const user = userEvent.setup();
    renderPages('/');
    await screen.findByText('Showing 50 of 120');

    // Act
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    // Assess
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Database timeout');
    expect(screen.getByText('Showing 50 of 120')).toBeInTheDocument();

    // Act
    failLoad = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await screen.findByText('Showing 100 of 120')).toBeInTheDocument();
    expect(api.calls(routes.loadPubs)).toHaveLength(2);
  });

  it('ranks /recent by the last post from show/activity, and labels a row without a follower count', async () => {
    // Prepare
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const items = [
      // Posted just now: 12 hours ago is yesterday's date before noon (the label counts calendar days).
      makePublication(1, { name: 'Glass Poetry', followers: 267_933, latestPostAt: daysAgo(0) }),
      makeFeedOnlyPublication(2, { name: 'Pulse Kitchen', latestPostAt: daysAgo(2) }),
    ];
    const page = { ...makeBoardPage({ kind: 'activity', total: 2 }), items };
    const api = stubRoutes(stubRoute(routes.showActivity, { body: makeBoardScreen(page) }));

    // Act
    renderPages('/recent');

    // Assess
    const table = await screen.findByRole('table', { name: 'Recently active publications' });
    expect(screen.getByRole('heading', { level: 1, name: 'Recently active publications' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Last post' })).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getByRole('columnheader', { name: 'Followers' })).not.toHaveAttribute('aria-sort');
    const [counted, feed] = bodyRows();
    expect(within(counted!).getByRole('link', { name: 'Glass Poetry' })).toBeInTheDocument();
    expect(within(counted!).getByTitle('267,933 followers')).toHaveTextContent('267.9K');
    expect(within(counted!).getByText('today')).toBeInTheDocument();
    expect(within(feed!).getByRole('link', { name: 'Pulse Kitchen' })).toHaveAttribute('href', '/pub/publication-2');
    expect(within(feed!).getByText('Feed only')).toHaveAttribute('title', 'No follower count: ranked by recent activity');
    expect(within(feed!).queryByTitle(/followers/)).not.toBeInTheDocument();
    expect(within(feed!).getByText('2 days ago')).toBeInTheDocument();

    const views = screen.getByRole('navigation', { name: 'Board views' });
    expect(within(views).getByRole('link', { name: 'Recently active' })).toHaveAttribute('aria-current', 'page');
    expect(within(views).getByRole('link', { name: 'Active only' })).toHaveAttribute('href', '/recent/active');
    const [request] = api.calls(routes.showActivity);
    expect(request?.url.searchParams.get('limit')).toBe('50');
    expect(request?.url.searchParams.has('active')).toBe(false);
    await waitFor(() => expect(document.title).toBe('Recently active publications · TopPubs'));
  });

  it('asks show/activity for active publications only on /recent/active', async () => {
    // Prepare
    const api = boardApi(40);

    // Act
    renderPages('/recent/active');

    // Assess
    await screen.findByRole('table', { name: 'Recently active publications, active only' });
    const [request] = api.calls(routes.showActivity);
    expect(request?.url.searchParams.get('active')).toBe('true');
    expect(request?.url.searchParams.has('topic')).toBe(false);
    expect(api.calls(routes.showHome)).toHaveLength(0);
  });

  it('asks the activity board for a topic, active only, on /topic/{tag}/recent?active=true', async () => {
    // Prepare
    const api = boardApi(40);

    // Act
    renderPages('/topic/ux/recent?active=true');

    // Assess
    await screen.findByRole('table', { name: 'UX: recently active' });
    expect(screen.getByText(/^The UX publications that posted most recently, newest post first\./)).toBeInTheDocument();
    const [request] = api.calls(routes.showActivity);
    expect(request?.url.searchParams.get('topic')).toBe('ux');
    expect(request?.url.searchParams.get('active')).toBe('true');
    const views = screen.getByRole('navigation', { name: 'Board views' });
    expect(within(views).getByRole('link', { name: 'Most followed' })).toHaveAttribute('href', '/topic/ux?active=true');
    expect(within(views).getByRole('link', { name: 'All' })).toHaveAttribute('href', '/topic/ux/recent');
  });

  it('opens /topic/UX/recent as ux, with the canonical address', async () => {
    // Prepare
    const api = boardApi(40);

    // Act
    const { router } = renderPages('/topic/UX/recent');

    // Assess
    await screen.findByRole('table', { name: 'UX: recently active' });
    expect(router.state.location.pathname).toBe('/topic/ux/recent');
    expect(api.calls(routes.showActivity)[0]?.url.searchParams.get('topic')).toBe('ux');
  });

  it('appends load/activityPubs pages to the activity board', async () => {
    // Prepare
    const api = boardApi(120);
    const user = userEvent.setup();
    renderPages('/recent');
    await screen.findByText('Showing 50 of 120');

    // Act
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    // Assess
    expect(await screen.findByText('Showing 100 of 120')).toBeInTheDocument();
    expect(api.calls(routes.loadActivityPubs).map(({ url }) => url.searchParams.get('from'))).toEqual(['50']);
    expect(api.calls(routes.loadPubs)).toHaveLength(0);
  });

  it('says so when an active board is empty', async () => {
    // Prepare
    boardApi(0);

    // Act
    renderPages('/growing/active');

    // Assess
    expect(await screen.findByRole('heading', { name: 'No publications here yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Show all publications' })).toHaveAttribute('href', '/growing');
  });
});
