import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makePublication } from '../test-utils/fixtures';
import { PublicationTable } from './publication-row';

function renderTable(...items: ReturnType<typeof makePublication>[]) {
  render(
    <MemoryRouter>
      <PublicationTable label="Results" items={items} kind="followers" />
    </MemoryRouter>,
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

  it('links each topic to its board', () => {
    // Act
    const [row] = renderTable(makePublication(1, { topics: ['data-science', 'python'] }));

    // Assess
    const topics = within(row!).getByRole('list', { name: 'Topics of Publication 1' });
    expect(within(topics).getByRole('link', { name: 'data science' })).toHaveAttribute('href', '/topic/data-science');
    expect(within(topics).getByRole('link', { name: 'python' })).toHaveAttribute('href', '/topic/python');
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
});
