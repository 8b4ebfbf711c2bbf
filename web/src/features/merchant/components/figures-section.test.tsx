import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSale } from '../test-utils/fixtures';
import { RecentSales } from './figures-section';

describe('RecentSales', () => {
  it('says each line’s quantity once, as the API describes the sale', () => {
    // Prepare: a sale of three prints, described as the sales ledger describes it
    const sale = makeSale({ description: 'Mountain Sunrise Print — A4 print × 3', units: 3 });

    // Act
    render(<RecentSales sales={[sale]} />);

    // Assess
    const row = within(screen.getByRole('table', { name: 'Recent sales' })).getAllByRole('row')[1];
    expect(within(row!).getByRole('cell', { name: 'Mountain Sunrise Print — A4 print × 3' })).toBeInTheDocument();
    expect(row).not.toHaveTextContent('× 3 × 3');
  });

  it('lists a sale of several lines with each line’s own quantity, not their total', () => {
    // Prepare
    const sale = makeSale({ description: 'Mug — Large × 2, Poster — A2', units: 3 });

    // Act
    render(<RecentSales sales={[sale]} />);

    // Assess
    const row = within(screen.getByRole('table', { name: 'Recent sales' })).getAllByRole('row')[1];
    expect(within(row!).getByRole('cell', { name: 'Mug — Large × 2, Poster — A2' })).toBeInTheDocument();
  });
});
