import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { SuggestedPublication, Suggestion } from '@shared/schemas/suggestions';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { SuggestPage } from './suggest-page';

const uxCollective: SuggestedPublication = {
  platform: 'medium',
  sourceUrl: 'https://medium.com/ux-collective',
  name: 'UX Collective',
  url: 'https://uxdesign.cc/',
  description: 'We believe designers are thinkers as much as they are makers.',
  imageUrl: null,
  topics: ['ux'],
  followers: 478_213,
  latestPostAt: null,
};

const breadLetters: SuggestedPublication = {
  ...uxCollective,
  platform: 'wordpress.com',
  sourceUrl: 'https://breadletters.wordpress.com/',
  name: 'Bread Letters',
  url: 'https://breadletters.example/',
  followers: 2_000,
};

const pulseKitchen: SuggestedPublication = {
  ...uxCollective,
  platform: 'feed',
  sourceUrl: 'https://pulse-kitchen.example/feed.xml',
  name: 'Pulse Kitchen',
  url: 'https://pulse-kitchen.example/',
  followers: null,
};

const suggestionOf = (publication: SuggestedPublication, overrides: Partial<Suggestion> = {}): Suggestion => ({
  id: `id-${publication.name.length}`,
  publication,
  status: 'pending',
  slug: null,
  suggestedAt: '2026-11-25T10:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
  ...overrides,
});

function renderPage(
  options: {
    user?: typeof jane | null;
    preview?: StubAnswer<typeof routes.previewSuggestion>;
    mine?: Suggestion[];
  } = {},
) {
  const api = stubRoutes(
    stubRoute(
      routes.previewSuggestion,
      options.preview ?? { body: { publication: uxCollective, knownSlug: null, wouldBeAccepted: true } },
    ),
    stubRoute(routes.suggestPublication, {
      status: 201,
      body: {
        suggestion: suggestionOf(uxCollective, { status: 'accepted', slug: 'ux-collective', decidedBy: 'auto' }),
        alreadyKnown: false,
      },
    }),
    stubRoute(routes.listMySuggestions, { body: { items: options.mine ?? [], nextCursor: null } }),
  );
  renderShell({
    path: '/suggest',
    user: options.user === undefined ? jane : options.user,
    pages: [{ path: 'suggest', Component: SuggestPage }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SuggestPage', () => {
  it('previews the pasted address, says it will be added at once, and suggests it', async () => {
    // Prepare
    const { api, user, page } = renderPage();

    // Act
    await user.type(page.getByRole('textbox', { name: 'Publication address' }), '  https://medium.com/ux-collective ');
    await user.click(page.getByRole('button', { name: 'Preview' }));

    // Assess
    const card = await page.findByRole('article', { name: 'UX Collective' });
    expect(within(card).getByText('Medium · 478.2K followers · no posts listed')).toBeInTheDocument();
    expect(page.getByText('With 478,213 followers, it is added as soon as you suggest it.')).toBeInTheDocument();
    expect(api.calls(routes.previewSuggestion)[0]?.body).toEqual({ url: 'https://medium.com/ux-collective' });

    // Act
    await user.click(page.getByRole('button', { name: 'Suggest it' }));

    // Assess
    const status = await page.findByRole('status');
    expect(status).toHaveTextContent('Thank you. Added: on the boards from the next hourly ranking. See its page.');
    expect(within(status).getByRole('link', { name: 'See its page' })).toHaveAttribute('href', '/pub/ux-collective');
    expect(api.calls(routes.suggestPublication)[0]?.body).toEqual({ url: 'https://medium.com/ux-collective' });
  });

  it('refuses what is not a web address before asking, and shows why the server could not read one', async () => {
    // Prepare
    const { api, user, page } = renderPage({
      preview: {
        status: 422,
        body: {
          message: 'No publication was found at that address. Check it and try again.',
          code: 'UNPROCESSABLE',
        },
      },
    });
    const input = page.getByRole('textbox', { name: 'Publication address' });

    // Act
    await user.type(input, 'ux collective');
    await user.click(page.getByRole('button', { name: 'Preview' }));

    // Assess
    expect(page.getByRole('alert')).toHaveTextContent('Paste a web address starting with https://');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls(routes.previewSuggestion)).toEqual([]);

    // Act
    await user.clear(input);
    await user.type(input, 'https://nothing.example/feed');
    await user.click(page.getByRole('button', { name: 'Preview' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('No publication was found at that address. Check it and try again.');
  });

  it('links a publication already ranked instead of offering to suggest it', async () => {
    // Prepare
    const { user, page } = renderPage({
      preview: { body: { publication: uxCollective, knownSlug: 'ux-collective', wouldBeAccepted: false } },
    });

    // Act
    await user.type(page.getByRole('textbox', { name: 'Publication address' }), 'https://medium.com/ux-collective');
    await user.click(page.getByRole('button', { name: 'Preview' }));

    // Assess
    const known = await page.findByRole('status');
    expect(known).toHaveTextContent('Already on TopPubs: see its page.');
    expect(within(known).getByRole('link', { name: 'see its page' })).toHaveAttribute('href', '/pub/ux-collective');
    expect(page.queryByRole('button', { name: 'Suggest it' })).not.toBeInTheDocument();
  });

  it('previews a feed as having no follower count, and says it waits for a moderator before it is ranked by activity', async () => {
    // Prepare
    const { api, user, page } = renderPage({
      preview: { body: { publication: pulseKitchen, knownSlug: null, wouldBeAccepted: false } },
    });

    // Act
    await user.type(page.getByRole('textbox', { name: 'Publication address' }), 'https://pulse-kitchen.example/feed.xml');
    await user.click(page.getByRole('button', { name: 'Preview' }));

    // Assess
    const card = await page.findByRole('article', { name: 'Pulse Kitchen' });
    expect(within(card).getByText('RSS or Atom feed · no follower count · no posts listed')).toBeInTheDocument();
    expect(
      page.getByText(
        'It has no follower count, so a moderator reviews it first; once accepted, it is ranked on the Recently active board.',
      ),
    ).toBeInTheDocument();
    expect(page.queryByText(/added as soon as you suggest it/)).not.toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Suggest it' })).toBeEnabled();
    expect(api.calls(routes.previewSuggestion)[0]?.body).toEqual({ url: 'https://pulse-kitchen.example/feed.xml' });
  });

  it('says that RSS and Atom feeds are accepted besides Medium and WordPress.com', async () => {
    // Prepare
    const { page } = renderPage();

    // Assess
    expect(
      await page.findByText(
        /^Missing a publication\? Paste its address: a Medium publication, a WordPress\.com blog, or a site’s RSS or Atom feed\./,
      ),
    ).toBeInTheDocument();
  });

  it("lists the reader's suggestions with what became of each", async () => {
    // Prepare
    const { page } = renderPage({
      mine: [
        suggestionOf(breadLetters, { status: 'rejected' }),
        suggestionOf(uxCollective, { status: 'accepted', slug: 'ux-collective' }),
      ],
    });

    // Act
    const list = await page.findByRole('list', { name: 'Your suggestions' });

    // Assess
    const items = within(list).getAllByRole('article');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Bread Letters', 'UX Collective']);
    expect(items[0]).toHaveTextContent('Not added: a moderator declined it.');
    expect(within(items[1]!).getByRole('link', { name: 'See its page' })).toHaveAttribute('href', '/pub/ux-collective');
  });

  it('asks a visitor to log in first', async () => {
    // Prepare
    const { page } = renderPage({ user: null });

    // Assess
    expect(await page.findByRole('heading', { name: 'Log in to suggest a publication' })).toBeInTheDocument();
    expect(page.queryByRole('textbox', { name: 'Publication address' })).not.toBeInTheDocument();
  });
});
