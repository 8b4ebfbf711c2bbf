import { describe, expect, it } from 'vitest';
import { queryKey } from '../../functions/ranking/lib/ranking-context';
import { loadPubs } from '../../shared/routes/ranking';

describe('queryKey (the ranking answer cache key)', () => {
  it('is the same for the same parameters sent in any order, defaults included', () => {
    // Prepare
    const sent = loadPubs.query.parse({ page: '2', active: 'true', limit: '20' });
    const reordered = loadPubs.query.parse({ limit: '20', active: 'true', page: '2' });
    const defaulted = loadPubs.query.parse({ active: 'true', page: '2' });

    // Act
    const keys = [sent, reordered, defaulted].map((query) => queryKey('loadPubs', query));

    // Assess
    expect(new Set(keys).size).toBe(1);
  });

  it('differs when a parameter or the handler differs', () => {
    // Prepare
    const second = loadPubs.query.parse({ page: '2' });
    const third = loadPubs.query.parse({ page: '3' });

    // Act
    const keys = [queryKey('loadPubs', second), queryKey('loadPubs', third), queryKey('loadGrowthPubs', second)];

    // Assess
    expect(new Set(keys).size).toBe(3);
  });
});
