import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makeFeedOnlyPublicationDetail, makePublicationDetail } from '../test-utils/fixtures';
import { installBrowserPolyfills, renderPages } from '../test-utils/render';

beforeEach(() => {
  installBrowserPolyfills();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PublicationPage', () => {
  it('shows the publication: exact followers, growth, status with its reason, topics and a link out', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makePublicationDetail() })));

    // Act
    renderPages('/pub/ux-collective');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'UX Collective' })).toBeInTheDocument();
    expect(screen.getByText('Curated stories on user experience, usability and product design.')).toBeInTheDocument();
    const stats = screen.getByText('Followers', { selector: 'dt' }).closest('dl') as HTMLElement;
    expect(within(stats).getByText('Followers').nextElementSibling).toHaveTextContent('298,836');
    expect(within(stats).getByText('Status').nextElementSibling).toHaveTextContent(
      /^ActiveLast post .*within the last 30 days\.$/,
    );
    expect(within(screen.getByRole('list', { name: 'Topics' })).getByRole('link', { name: 'UX' })).toHaveAttribute(
      'href',
      '/topic/ux',
    );
    expect(screen.getByRole('link', { name: 'Visit UX Collective (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://uxdesign.cc/',
    );
  });

  it.each([
    [{ status: 'active' as const, hoursAgo: 3 }, 'Numbers from Medium, last collected 3 hours ago.'],
    [
      { status: 'flagged' as const, hoursAgo: 9 * 24 },
      'Reading it from Medium has been failing lately; its numbers were last collected 9 days ago.',
    ],
    [
      { status: 'gone' as const, hoursAgo: 9 * 24 },
      'No longer found on Medium: it has left the boards and keeps its history here.',
    ],
    [null, 'Numbers reported to TopPubs through its ingestion API.'],
  ])('says where its numbers come from and how fresh they are (%o)', async (source, note) => {
    // Prepare
    const detail = makePublicationDetail(
      {},
      source && {
        platform: 'medium',
        url: 'https://medium.com/ux-collective',
        status: source.status,
        lastCollectedAt: new Date(Date.now() - source.hoursAgo * 3_600_000).toISOString(),
      },
    );
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: detail })));

    // Act
    renderPages('/pub/ux-collective');

    // Assess
    expect(await screen.findByText(/Tracked since/)).toHaveTextContent(
      new RegExp(`^${note.replace(/[.()]/g, '\\$&')} Tracked since`),
    );
  });

  it('says why a publication is dormant', async () => {
    // Prepare
    const lastPost = new Date(Date.now() - 45 * 86_400_000).toISOString();
    stubRoutes(
      stubRoute(routes.getPublication, () => ({ body: makePublicationDetail({ latestPostAt: lastPost, isActive: false }) })),
    );

    // Act
    renderPages('/pub/ux-collective');

    // Assess
    const status = (await screen.findByText('Status')).nextElementSibling;
    expect(status).toHaveTextContent(/^DormantNo post in the last 30 days: the last one was last month/);
  });

  it('lists its rank on every board it is on, each linking to that board', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makePublicationDetail() })));

    // Act
    renderPages('/pub/ux-collective');

    // Assess
    const rankings = await screen.findByRole('region', { name: 'Rankings' });
    const items = within(rankings).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '#12of 17,000Most followed',
      '#40of 17,000Fastest growing',
      '#2of 310Most followed · UX',
    ]);
    expect(within(rankings).getByRole('link', { name: 'Most followed · UX' })).toHaveAttribute('href', '/topic/ux');
    expect(within(rankings).getByRole('link', { name: 'Fastest growing' })).toHaveAttribute('href', '/growing');
  });

  it('describes both charts in words and offers their numbers as tables', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makePublicationDetail() })));
    const user = userEvent.setup();
    renderPages('/pub/ux-collective');

    // Act
    const followerChart = await screen.findByRole('img', { name: /^Followers of UX Collective from/ });
    await user.click(screen.getAllByText('Show as a table')[0]!);

    // Assess
    expect(followerChart).toHaveAccessibleName(/290,000 to 298,900\.$/);
    const table = screen.getByRole('table', { name: 'Daily followers of UX Collective' });
    expect(within(table).getAllByRole('row')).toHaveLength(91);
    expect(screen.getByRole('img', { name: /^Rank of UX Collective on Most followed from/ })).toHaveAccessibleName(
      /#30 to #12, best #12\.$/,
    );
  });

  it('charts the rank on the board the reader picks, only over the days it was on it', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makePublicationDetail() })));
    const user = userEvent.setup();
    renderPages('/pub/ux-collective');

    // Act
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Board' }), 'Most followed · UX');

    // Assess
    expect(screen.getByRole('img', { name: /^Rank of UX Collective on Most followed · UX from/ })).toHaveAccessibleName(
      /#2 to #2, best #2\.$/,
    );
    expect(
      within(screen.getByRole('table', { name: 'Daily rank of UX Collective on Most followed · UX', hidden: true })).getAllByRole(
        'row',
        { hidden: true },
      ),
    ).toHaveLength(11);
  });

  it('explains that a feed without a follower count is ranked by its posts, with no follower figures or chart', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makeFeedOnlyPublicationDetail() })));

    // Act
    renderPages('/pub/pulse-kitchen');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Pulse Kitchen' })).toBeInTheDocument();
    const note = screen.getByText(/^This site publishes a feed but no follower count/);
    expect(note).toHaveTextContent(
      'This site publishes a feed but no follower count, so it is ranked by how recently it posted: #7 on Recently active.',
    );
    expect(within(note).getByRole('link', { name: 'Recently active' })).toHaveAttribute('href', '/recent');
    expect(screen.queryByText('Followers', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.queryByText('30-day growth', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.getByText('Status', { selector: 'dt' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /^(Followers of|No follower counts of) Pulse Kitchen/ })).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: /^Rank of Pulse Kitchen on Recently active from/ })).toBeInTheDocument();
    expect(screen.getByText(/Tracked since/)).toHaveTextContent(/^Numbers from its feed, last collected /);
  });

  it('words the last post in the viewer time zone, the relative day agreeing with the date', async () => {
    // Prepare: 6 December, 09:00 in Lisbon; the feed's last post went out at 20:00 the evening before.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-06T09:00:00.000Z') });
    const resolvedOptions = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...resolvedOptions.call(this), timeZone: 'Europe/Lisbon' };
    });
    const detail = makeFeedOnlyPublicationDetail();
    detail.publication.latestPostAt = '2026-12-05T20:00:00.000Z';
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: detail })));

    try {
      // Act
      renderPages('/pub/pulse-kitchen');

      // Assess
      const status = (await screen.findByText('Status', { selector: 'dt' })).nextElementSibling;
      expect(status).toHaveTextContent('Last post yesterday (5 December 2026): within the last 30 days.');
      const lastPost = screen.getByText('Last post', { selector: 'dt' }).nextElementSibling as HTMLElement;
      expect(within(lastPost).getByText('yesterday')).toHaveAttribute('title', '5 December 2026');
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('names the activity boards it is on "Recently active", each linking to that board', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makeFeedOnlyPublicationDetail() })));

    // Act
    renderPages('/pub/pulse-kitchen');

    // Assess
    const rankings = await screen.findByRole('region', { name: 'Rankings' });
    expect(
      within(rankings)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['#7of 17,400Recently active', '#3of 320Recently active · UX']);
    expect(within(rankings).getByRole('link', { name: 'Recently active' })).toHaveAttribute('href', '/recent');
    expect(within(rankings).getByRole('link', { name: 'Recently active · UX' })).toHaveAttribute('href', '/topic/ux/recent');
  });

  it('shows a not-found page with a search for an unknown slug', async () => {
    // Prepare
    stubRoutes(
      stubRoute(routes.getPublication, () => ({
        status: 404,
        body: { message: "There is no publication with the slug 'gone-pub'.", code: 'NOT_FOUND' },
      })),
    );

    // Act
    renderPages('/pub/gone-pub');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'There is no such publication' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Search for “gone-pub”' })).toHaveAttribute('href', '/search?q=gone%20pub');
  });

  it('shows an error with a retry when the server fails, and the page once the retry succeeds', async () => {
    // Prepare
    let fail = true;
    stubRoutes(
      stubRoute(routes.getPublication, () =>
        fail
          ? { status: 503, body: { message: 'The database is busy. Please try again.', code: 'UNAVAILABLE' } }
          : { body: makePublicationDetail() },
      ),
    );
    const user = userEvent.setup();
    renderPages('/pub/ux-collective');
    const alert = await screen.findByRole('alert');

    // Act
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(alert).toHaveTextContent('The database is busy. Please try again.');
    expect(await screen.findByRole('heading', { level: 1, name: 'UX Collective' })).toBeInTheDocument();
  });
});
