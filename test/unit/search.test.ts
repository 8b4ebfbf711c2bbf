import { describe, expect, it } from 'vitest';
import { buildSearchIndex, searchPublications } from '../../functions/ranking/lib/domain/search';
import type { SearchEntry } from '../../functions/ranking/lib/ranking-run';

// Kept in follower order, as the ranking run writes them: [slug, name, followers, rank, growth
// rank, active, topic positions]; topic 0 is data science, 1 startups.
const ENTRIES: SearchEntry[] = [
  ['towards-data-science', 'Towards Data Science', 700_000, 1, 3, 1, [0]],
  ['the-startup', 'The Startup', 650_000, 2, 1, 1, [1]],
  ['data', 'Data Digest', 90_000, 3, 4, 0, [0]],
  ['better-programming', 'Better Programming', 80_000, 4, 2, 1, []],
  ['datasci-weekly', 'DataSci Weekly', 5_000, 5, 6, 1, [0, 1]],
  ['startup-grind', 'Startup Grind', 4_000, 6, 5, 0, [1]],
  ['code-like-a-girl', 'Code Like A Girl', 3_000, 7, 7, 1, []],
];

const index = buildSearchIndex(ENTRIES);
const search = (query: string, limit = 20) => {
  const { matches, total } = searchPublications(index, query, { from: 0, limit });
  return { slugs: matches.map(([slug]) => slug), total };
};

describe('searchPublications', () => {
  it('finds publications whose name starts with the query, in follower order', () => {
    expect(search('Towa').slugs).toEqual(['towards-data-science']);
  });

  it('finds publications whose slug starts with the query', () => {
    expect(search('better-prog').slugs).toEqual(['better-programming']);
  });

  it('finds a word anywhere in the name by its prefix', () => {
    expect(search('prog').slugs).toEqual(['better-programming']);
  });

  it('finds "Towards Data Science" for "data sci"', () => {
    // Act
    const result = search('data sci');

    // Assess: every query word starts a word of the name or slug.
    expect(result.slugs).toContain('towards-data-science');
    expect(result.slugs).not.toContain('data');
  });

  it('puts an exact name or slug match first, then the rest by followers', () => {
    // Act
    const bySlug = search('data');
    const byName = search('startup grind');

    // Assess
    expect(bySlug.slugs).toEqual(['data', 'towards-data-science', 'datasci-weekly']);
    expect(byName.slugs).toEqual(['startup-grind']);
    expect(search('startup').slugs).toEqual(['the-startup', 'startup-grind']);
    expect(search('the startup').slugs).toEqual(['the-startup']);
  });

  it('ignores case and surrounding spaces', () => {
    expect(search('  THE START  ').slugs).toEqual(['the-startup']);
  });

  it('caps the matches at the limit and reports the total', () => {
    // Act
    const result = search('data', 2);

    // Assess
    expect(result.slugs).toEqual(['data', 'towards-data-science']);
    expect(result.total).toBe(3);
  });

  it('gives nothing when nothing matches', () => {
    expect(search('zebra')).toEqual({ slugs: [], total: 0 });
  });

  it('gives nothing for a query made only of punctuation', () => {
    expect(search('-- !! ..')).toEqual({ slugs: [], total: 0 });
  });

  it('requires every query word to match', () => {
    expect(search('code girl').slugs).toEqual(['code-like-a-girl']);
    expect(search('code zebra').slugs).toEqual([]);
  });

  it('pages through every match: a later page continues where the first stopped', () => {
    // Act
    const first = searchPublications(index, 'data', { from: 0, limit: 2 });
    const second = searchPublications(index, 'data', { from: 2, limit: 2 });

    // Assess
    expect(first.matches.map(([slug]) => slug)).toEqual(['data', 'towards-data-science']);
    expect(second.matches.map(([slug]) => slug)).toEqual(['datasci-weekly']);
    expect(second.total).toBe(3);
  });

  it('narrows to active publications and to one topic, counting only what is left', () => {
    // Act
    const active = searchPublications(index, 'data', { from: 0, limit: 10, activeOnly: true });
    const startups = searchPublications(index, 'startup', { from: 0, limit: 10, topicPosition: 1 });
    const activeStartups = searchPublications(index, 's', { from: 0, limit: 10, activeOnly: true, topicPosition: 1 });

    // Assess
    expect(active).toEqual({ matches: [ENTRIES[0], ENTRIES[4]], total: 2 });
    expect(startups.matches.map(([slug]) => slug)).toEqual(['the-startup', 'startup-grind']);
    expect(activeStartups.matches.map(([slug]) => slug)).toEqual(['the-startup']);
  });
});
