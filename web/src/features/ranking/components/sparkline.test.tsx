import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Sparkline, sparklinePoints } from './sparkline';

const daily = Array.from({ length: 30 }, (_, day) => 1_000 + day * 10);

describe('Sparkline', () => {
  it('draws one polyline point per daily count, labelled for screen readers', () => {
    // Act
    render(<Sparkline points={daily} label="Followers over the last 30 days, from 1,000 to 1,290" />);

    // Assess
    const chart = screen.getByRole('img', { name: 'Followers over the last 30 days, from 1,000 to 1,290' });
    const points = chart.querySelector('polyline')?.getAttribute('points')?.split(' ') ?? [];
    expect(points).toHaveLength(30);
    expect(chart).toHaveAttribute('data-trend', 'up');
  });

  it('puts the oldest count on the left and the highest at the top', () => {
    // Act
    const points = sparklinePoints([10, 20, 30], 96, 28).split(' ');

    // Assess
    expect(points).toEqual(['0,26', '48,14', '96,2']);
  });

  it('draws a flat line through the middle when nothing changed, and nothing with under two points', () => {
    // Act
    const flat = sparklinePoints([5, 5, 5], 96, 28);
    const { container } = render(<Sparkline points={[5]} label="unused" />);

    // Assess
    expect(flat).toBe('0,14 48,14 96,14');
    expect(container.querySelector('polyline')).toBeNull();
  });

  it('colours a falling line as a loss', () => {
    // Act
    render(<Sparkline points={[30, 20, 10]} label="falling" />);

    // Assess
    expect(screen.getByRole('img', { name: 'falling' })).toHaveAttribute('data-trend', 'down');
  });
});
