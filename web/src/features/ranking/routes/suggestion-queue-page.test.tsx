import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { Suggestion } from '@shared/schemas/suggestions';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { SuggestionQueuePage } from './suggestion-queue-page';

const moderator = { ...jane, isSuperUser: true };

const waiting = (id: string, name: string): Suggestion => ({
  id,
  publication: {
    platform: 'wordpress.com',
    sourceUrl: `https://${id}.wordpress.com/`,
    name,
    url: `https://${id}.example/`,
    description: '',
    imageUrl: null,
    topics: [],
    followers: 18_342,
    latestPostAt: null,
  },
  status: 'pending',
  slug: null,
  suggestedAt: '2026-11-25T10:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
});

const NO_ATTENTION = { sources: [], counts: { failing: 0, flagged: 0, gone: 0 } };

function renderQueue(
  options: {
    user?: typeof jane | null;
    decide?: StubAnswer<typeof routes.decideSuggestion>;
    attention?: StubAnswer<typeof routes.listSourcesNeedingAttention>;
    queue?: Suggestion[];
  } = {},
) {
  const api = stubRoutes(
    stubRoute(routes.listSourcesNeedingAttention, options.attention ?? { body: NO_ATTENTION }),
    stubRoute(routes.importSources, ({ body }) => ({
      body: {
        results: (body as { urls: string[] }).urls.map((url) =>
          url.includes('known')
            ? { url, outcome: 'known' as const, slug: 'known-one', name: 'Known One', reason: null }
            : url.includes('broken')
              ? { url, outcome: 'failed' as const, slug: null, name: null, reason: 'No publication was found at that address.' }
              : { url, outcome: 'added' as const, slug: `added-${url.length}`, name: `Added ${url}`, reason: null },
        ),
      },
    })),
    stubRoute(routes.listSuggestionQueue, {
      body: {
        items: options.queue ?? [waiting('tea', 'Field Notes on Tea'), waiting('bread', 'Bread Letters')],
        nextCursor: null,
      },
    }),
    stubRoute(
      routes.decideSuggestion,
      options.decide ??
        ((request) => ({
          body: {
            suggestion: {
              ...waiting(request.params.id ?? '', 'Decided'),
              status: request.params.decision === 'accept' ? ('accepted' as const) : ('rejected' as const),
            },
            alreadyKnown: false,
          },
        })),
    ),
  );
  renderShell({
    path: '/suggestions/review',
    user: options.user === undefined ? moderator : options.user,
    pages: [{ path: 'suggestions/review', Component: SuggestionQueuePage }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SuggestionQueuePage', () => {
  it('lists the waiting suggestions; accepting or rejecting one takes it off the list', async () => {
    // Prepare
    const { api, user, page } = renderQueue();
    const queue = await page.findByRole('list', { name: 'Suggestions waiting for review' });

    // Act
    await user.click(within(queue).getByRole('button', { name: 'Accept Field Notes on Tea' }));

    // Assess
    await vi.waitFor(() => expect(within(queue).queryByRole('article', { name: 'Field Notes on Tea' })).not.toBeInTheDocument());
    expect(api.calls(routes.decideSuggestion)[0]?.params).toEqual({ id: 'tea', decision: 'accept' });

    // Act
    await user.click(within(queue).getByRole('button', { name: 'Reject Bread Letters' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Nothing to review' })).toBeInTheDocument();
    expect(api.calls(routes.decideSuggestion)[1]?.params).toEqual({ id: 'bread', decision: 'reject' });
  });

  it('shows a suggested feed as having no follower count, and that accepting ranks it by activity only', async () => {
    // Prepare
    const tea = waiting('tea', 'Field Notes on Tea');
    const feed: Suggestion = {
      ...tea,
      id: 'pulse',
      publication: {
        ...tea.publication,
        platform: 'feed',
        sourceUrl: 'https://pulse-kitchen.example/feed.xml',
        name: 'Pulse Kitchen',
        followers: null,
      },
    };
    const { page } = renderQueue({ queue: [feed, tea] });

    // Act
    const queue = await page.findByRole('list', { name: 'Suggestions waiting for review' });

    // Assess
    const [feedCard, teaCard] = within(queue).getAllByRole('article');
    expect(feedCard).toHaveAccessibleName('Pulse Kitchen');
    expect(within(feedCard!).getByText('RSS or Atom feed · no follower count · no posts listed')).toBeInTheDocument();
    expect(feedCard).toHaveTextContent('A feed: accepted, it is ranked on Recently active only.');
    expect(within(feedCard!).getByRole('button', { name: 'Accept Pulse Kitchen' })).toBeEnabled();
    expect(teaCard).toHaveTextContent('18.3K followers');
    expect(teaCard).not.toHaveTextContent('A feed');
  });

  it('says why a decision did not get through', async () => {
    // Prepare
    const { user, page } = renderQueue({
      decide: { status: 409, body: { message: 'This suggestion has already been decided.', code: 'CONFLICT' } },
    });
    const queue = await page.findByRole('list', { name: 'Suggestions waiting for review' });

    // Act
    await user.click(within(queue).getByRole('button', { name: 'Accept Field Notes on Tea' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('This suggestion has already been decided.');
  });

  it('is closed to readers who are not moderators, asking nothing of the API', async () => {
    // Prepare
    const { api, page } = renderQueue({ user: jane });

    // Assess
    expect(await page.findByRole('heading', { name: 'This page is for the moderators' })).toBeInTheDocument();
    expect(api.calls(routes.listSuggestionQueue)).toEqual([]);
    expect(api.calls(routes.listSourcesNeedingAttention)).toEqual([]);
  });

  it('shows moderators the sources the collector could not read, flagged first, with why', async () => {
    // Prepare
    const { page } = renderQueue({
      attention: {
        body: {
          sources: [
            {
              slug: 'night-shift',
              name: 'Night Shift',
              platform: 'medium',
              url: 'https://medium.com/night-shift',
              status: 'flagged',
              lastError: 'https://medium.com/night-shift?format=json answered 503',
              failingSince: '2026-11-18T02:00:00.000Z',
              lastCollectedAt: '2026-11-17T02:00:00.000Z',
            },
          ],
          counts: { failing: 2, flagged: 1, gone: 0 },
        },
      },
    });

    // Act
    const section = await page.findByRole('region', { name: 'Sources that need a look' });
    const table = await within(section).findByRole('table', { name: 'Publications the collector could not read' });

    // Assess
    expect(within(section).getByText('1 flagged, 0 gone, 2 failing (1 of them listed).')).toBeInTheDocument();
    const row = within(table).getByRole('row', { name: /Night Shift/ });
    expect(within(row).getByRole('link', { name: 'Night Shift' })).toHaveAttribute('href', '/pub/night-shift');
    expect(within(row).getByText(/^Flagged: failing for a week since/)).toBeInTheDocument();
    expect(within(row).getByText('https://medium.com/night-shift?format=json answered 503')).toBeInTheDocument();
  });

  it('says so when every source was read at its last collection', async () => {
    // Prepare
    const { page } = renderQueue();

    // Act
    const section = await page.findByRole('region', { name: 'Sources that need a look' });

    // Assess
    expect(await within(section).findByText('Every publication was read at its last collection.')).toBeInTheDocument();
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
  });

  it('imports a file of addresses a few at a time and reports what became of each', async () => {
    // Prepare
    const { api, user, page } = renderQueue();
    const file = new File(
      [
        [
          '# to add',
          'https://one.example/feed.xml',
          'https://known.example/feed.xml',
          'not an address',
          'https://broken.example/feed.xml',
          'https://four.example/feed.xml',
          'https://five.example/feed.xml',
          'https://six.example/feed.xml',
          'https://one.example/feed.xml',
        ].join('\n'),
      ],
      'list.txt',
      { type: 'text/plain' },
    );

    // Act
    await user.upload(page.getByLabelText('File of addresses'), file);
    expect(await page.findByText('list.txt: 6 addresses to import; 1 line without an address skipped.')).toBeInTheDocument();
    await user.click(page.getByRole('button', { name: 'Import' }));

    // Assess
    expect(await page.findByText('4 added, 1 already known, 1 not added.', { exact: false })).toBeInTheDocument();
    expect(api.calls(routes.importSources).map((call) => (call.body as { urls: string[] }).urls.length)).toEqual([5, 1]);
    const rows = within(page.getByRole('table', { name: 'What became of each address' }))
      .getAllByRole('row')
      .slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['https://one.example/feed.xml', 'Added', 'Added https://one.example/feed.xml'],
      ['https://known.example/feed.xml', 'Already known', 'Known One'],
      ['https://broken.example/feed.xml', 'Not added', 'No publication was found at that address.'],
      ['https://four.example/feed.xml', 'Added', 'Added https://four.example/feed.xml'],
      ['https://five.example/feed.xml', 'Added', 'Added https://five.example/feed.xml'],
      ['https://six.example/feed.xml', 'Added', 'Added https://six.example/feed.xml'],
    ]);
    expect(page.getByRole('link', { name: 'Known One' })).toHaveAttribute('href', '/pub/known-one');
    expect(page.getByRole('link', { name: 'Download the report (CSV)' })).toHaveAttribute('download', 'import-report.csv');
  });
});
