import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LoginModalProvider } from '../../../lib/login-modal';
import { createTestQueryClient } from '../../../test/render-shell';
import { makeFeedOnlyPublication, makePublication } from '../test-utils/fixtures';
import { PublicationTable } from './publication-row';

function renderTable(...items: ReturnType<typeof makePublication>[]) {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <LoginModalProvider>
        <MemoryRouter>
          <PublicationTable label="Results" items={items} kind="followers" />
        </MemoryRouter>
      </LoginModalProvider>
    </QueryClientProvider>,
  );
  return screen.getAllByRole('row').slice(1);
}

describe('PublicationRow', () => {
  it('shows the image when there is one and generated initials when there is none', () => {
    // Prepare
    const withImage = makePublication(1, { name: 'Glass Poetry', imageUrl: 'https://cdn.example.com/glass.png' });
    const withoutImage = makePublication(2, { name: 'The Business Daily', imageUrl: null });

    // Act
    const [first, second] = renderTable(withImage, withoutImage);

    // Assess
    expect(first!.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/glass.png');
    expect(second!.querySelector('img')).toBeNull();
    expect(within(second!).getByText('BD')).toBeInTheDocument();
  });

  it("links the name to the publication's page, and offers its own site and Follow beside it", () => {
    // Act
    const [row] = renderTable(makePublication(1, { name: 'Glass Poetry', slug: 'glass-poetry' }));

    // Assess
    expect(within(row!).getByRole('link', { name: 'Glass Poetry' })).toHaveAttribute('href', '/pub/glass-poetry');
    const visit = within(row!).getByRole('link', { name: 'Visit Glass Poetry (opens in a new tab)' });
    expect(visit).toHaveAttribute('href', 'https://glass-poetry.example.com/');
    expect(visit).toHaveAttribute('target', '_blank');
    expect(visit).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(row!).getByRole('button', { name: 'Follow Glass Poetry' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('keeps the Dormant badge beside the name, never inside it, and says what it means', () => {
    // Act
    const [row] = renderTable(makePublication(1, { name: 'The Web Development Collective', isActive: false }));

    // Assess: the link reads the whole name and nothing else.
    const name = within(row!).getByRole('link', { name: 'The Web Development Collective' });
    expect(name).toHaveTextContent(/^The Web Development Collective$/);
    const badge = within(row!).getByText('Dormant');
    expect(name).not.toContainElement(badge);
    expect(badge).toHaveAttribute('title', 'No posts in the last 30 days');
  });

  it('offers the site as a labelled link with an icon only, apart from the name', () => {
    // Act
    const [row] = renderTable(makePublication(1, { name: 'UX Collective', slug: 'ux-collective', url: 'https://uxdesign.cc/' }));

    // Assess
    const visit = within(row!).getByRole('link', { name: 'Visit UX Collective (opens in a new tab)' });
    expect(visit).toHaveAttribute('href', 'https://uxdesign.cc/');
    expect(visit).toHaveTextContent('');
    expect(visit.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(within(row!).getByRole('link', { name: 'UX Collective' })).not.toContainElement(visit);
  });

  it('links each topic to its board, named in its real casing', () => {
    // Act
    const [row] = renderTable(makePublication(1, { topics: ['data-science', 'ux', 'javascript', 'ios-development'] }));

    // Assess
    const topics = within(row!).getByRole('list', { name: 'Topics of Publication 1' });
    expect(within(topics).getByRole('link', { name: 'Data Science' })).toHaveAttribute('href', '/topic/data-science');
    expect(within(topics).getByRole('link', { name: 'UX' })).toHaveAttribute('href', '/topic/ux');
    expect(within(topics).getByRole('link', { name: 'JavaScript' })).toHaveAttribute('href', '/topic/javascript');
    expect(within(topics).getByRole('link', { name: 'iOS Development' })).toHaveAttribute('href', '/topic/ios-development');
  });

  it('gives the last post as a relative date with the exact one in its title', () => {
    // Prepare
    const posted = new Date(Date.now() - 3 * 86_400_000).toISOString();

    // Act
    const [row] = renderTable(makePublication(1, { latestPostAt: posted }));

    // Assess
    const time = within(row!).getByText('3 days ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', posted);
  });

  it('labels a publication without a follower count "Feed only", instead of showing zero followers, growth or a trend', () => {
    // Prepare
    const posted = new Date(Date.now() - 3 * 86_400_000).toISOString();

    // Act
    const [feed, counted] = renderTable(
      makeFeedOnlyPublication(1, { name: 'Pulse Kitchen', latestPostAt: posted }),
      makePublication(2, { name: 'Glass Poetry', followers: 1_200, gained30d: 40 }),
    );

    // Assess
    const [, , followers, growth, trend] = within(feed!).getAllByRole('cell');
    const badge = within(followers!).getByText('Feed only');
    expect(badge).toHaveAttribute('title', 'No follower count: ranked by recent activity');
    expect(followers).toHaveTextContent(/^Feed only \(No follower count: ranked by recent activity\)$/);
    expect(within(feed!).queryByTitle(/followers/)).not.toBeInTheDocument();
    expect(growth).toBeEmptyDOMElement();
    expect(trend).toBeEmptyDOMElement();
    expect(within(feed!).queryByRole('img')).not.toBeInTheDocument();
    expect(within(feed!).getByText('3 days ago')).toBeInTheDocument();

    expect(within(counted!).queryByText('Feed only')).not.toBeInTheDocument();
    expect(within(counted!).getByTitle('1,200 followers')).toHaveTextContent('1.2K');
    expect(within(counted!).getByRole('img', { name: /^Followers over the last 30 days/ })).toBeInTheDocument();
  });

  it('counts a row without the followersKnown flag (cached before it existed) as having followers', () => {
    // Prepare
    const { followersKnown: _followersKnown, ...older } = makePublication(1, { followers: 1_200 });

    // Act
    const [row] = renderTable(older as ReturnType<typeof makePublication>);

    // Assess
    expect(within(row!).getByTitle('1,200 followers')).toHaveTextContent('1.2K');
    expect(within(row!).queryByText('Feed only')).not.toBeInTheDocument();
  });
});
