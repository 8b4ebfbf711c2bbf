import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { ArchiveRow, MonthArchive } from '@shared/schemas/month-archive';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makePublicationDetail } from '../test-utils/fixtures';
import { installBrowserPolyfills, renderPages } from '../test-utils/render';

const TOPICS = [
  { tag: 'ux', name: 'UX', publicationCount: 310 },
  { tag: 'design', name: 'Design', publicationCount: 120 },
];

function row(rank: number, slug: string, figures: Partial<ArchiveRow> = {}): ArchiveRow {
  return {
    rank,
    slug,
    name: slug.replace(/-/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()),
    url: `https://${slug}.example/`,
    imageUrl: null,
    followers: 10_000 - rank * 100,
    gained: 500 - rank * 10,
    growthPct: 5,
    activeDays: 31,
    ...figures,
  };
}

/** October 2026, overall or of one topic. */
function archive(topic: string | null): MonthArchive {
  const prefix = topic ? `${topic}-` : '';
  return {
    month: '2026-10',
    topic: TOPICS.find((entry) => entry.tag === topic) ?? null,
    publicationCount: topic ? 310 : 17_000,
    boards: {
      followers: [row(1, `${prefix}giant`, { followers: 291_200 }), row(2, `${prefix}second`)],
      growth: [row(1, `${prefix}riser`, { gained: 4_300, growthPct: 120 })],
      activity: [row(1, `${prefix}busy`, { activeDays: 31 })],
    },
    topics: TOPICS,
    archivedAt: '2026-11-01T00:20:00.000Z',
    seo: { title: 'The best publications of October 2026 · TopPubs', description: '', keywords: [], imageUrl: '' },
  };
}

const MONTHS = { months: ['2026-10', '2026-09', '2026-08'].map((month) => ({ month, publicationCount: 17_000, topicCount: 2 })) };

function archiveApi() {
  return stubRoutes(
    stubRoute(routes.listArchivedMonths, () => ({ body: MONTHS })),
    stubRoute(routes.showArchiveMonth, ({ params, url }) => {
      const month = `${params.year}-${params.month}`;
      if (month !== '2026-10') {
        return {
          status: 404,
          body: {
            message: `The rankings of ${month} are not archived: only months with ranking history are, once they close.`,
            code: 'NOT_FOUND',
          },
        };
      }
      return { body: archive(url.searchParams.get('topic')) };
    }),
  );
}

beforeEach(() => {
  installBrowserPolyfills();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ArchivePage', () => {
  it("shows a month's three boards, with links to the neighbouring months and every archived month", async () => {
    // Prepare
    archiveApi();

    // Act
    renderPages('/archive/2026/10');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Publications of October 2026' })).toBeInTheDocument();
    const followed = screen.getByRole('list', { name: 'Most followed, October 2026' });
    expect(within(followed).getAllByRole('listitem')[0]).toHaveTextContent(/^#1.*Giant291.2K followers$/);
    expect(within(followed).getByRole('link', { name: 'Giant' })).toHaveAttribute('href', '/pub/giant');
    expect(screen.getByRole('list', { name: 'Fastest growing, October 2026' })).toHaveTextContent('+4.3K +120%');
    expect(screen.getByRole('list', { name: 'Most active, October 2026' })).toHaveTextContent('active 31 of 31 days');
    const pager = screen.getByRole('navigation', { name: 'Months' });
    expect(await within(pager).findByRole('link', { name: '← September 2026' })).toHaveAttribute('href', '/archive/2026/09');
    expect(within(pager).queryByRole('link', { name: /November/ })).not.toBeInTheDocument();
    const months = screen.getByRole('navigation', { name: 'Archived months' });
    expect(within(months).getByRole('link', { name: 'October 2026' })).toHaveAttribute('aria-current', 'page');
    expect(within(months).getByRole('link', { name: 'August 2026' })).toHaveAttribute('href', '/archive/2026/08');
  });

  it("shows one topic's boards when a topic is picked", async () => {
    // Prepare
    const api = archiveApi();
    renderPages('/archive/2026/10');
    const picker = await screen.findByRole('combobox', { name: 'Topic' });

    // Act
    await userEvent.selectOptions(picker, 'Design (120)');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Design publications of October 2026' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Most followed, October 2026' })).getByRole('link', { name: 'Design Giant' }),
    ).toBeInTheDocument();
    expect(api.calls(routes.showArchiveMonth).at(-1)?.url.searchParams.get('topic')).toBe('design');
  });

  it('says a month not archived is not there, with the way back to the archive', async () => {
    // Prepare
    archiveApi();

    // Act
    renderPages('/archive/2031/05');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'May 2031 is not in the archive' })).toBeInTheDocument();
    expect(screen.getByText(/are not archived: only months with ranking history are/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Every archived month' })).toHaveAttribute('href', '/archive');
  });

  it('refuses an address that is not a month without asking the API', async () => {
    // Prepare
    const api = archiveApi();

    // Act
    renderPages('/archive/2026/13');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'There is no such month' })).toBeInTheDocument();
    expect(api.calls(routes.showArchiveMonth)).toHaveLength(0);
  });
});

describe('the publication page and the archive', () => {
  it('links each month the publication ranked in, with its best place', async () => {
    // Prepare
    stubRoutes(stubRoute(routes.getPublication, () => ({ body: makePublicationDetail() })));

    // Act
    renderPages('/pub/ux-collective');

    // Assess
    const section = await screen.findByRole('region', { name: 'In the monthly archive' });
    expect(within(section).getByRole('link', { name: 'October 2026' })).toHaveAttribute('href', '/archive/2026/10');
    expect(within(section).getAllByRole('listitem')[0]).toHaveTextContent('#14 most followed');
    expect(within(section).getByRole('link', { name: 'September 2026' })).toHaveAttribute('href', '/archive/2026/09?topic=ux');
    expect(within(section).getAllByRole('listitem')[1]).toHaveTextContent('#5 fastest growing in UX');
  });
});
