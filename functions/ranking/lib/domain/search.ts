import type { SearchEntry } from '../ranking-run';

export interface SearchIndex {
  entries: SearchEntry[];
  /** Lower-cased name and slug words per entry, same order as entries. */
  words: string[][];
  names: string[];
}

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

export function buildSearchIndex(entries: SearchEntry[]): SearchIndex {
  const names = entries.map(([slug, name]) => `${name.toLowerCase()}\u0000${slug}`);
  const words = entries.map(([slug, name]) => [
    ...new Set([...name.toLowerCase().split(WORD_SPLIT), ...slug.split(WORD_SPLIT)].filter(Boolean)),
  ]);
  return { entries, words, names };
}

/**
 * Publications whose name or slug starts with the query, or in which every query word starts
 * a word of the name or slug. Exact name or slug matches come first, then by followers (the
 * index is kept in follower order, so a stable filter preserves it).
 */
export function searchPublications(
  index: SearchIndex,
  rawQuery: string,
  limit: number,
): { matches: SearchEntry[]; total: number } {
  const query = rawQuery.trim().toLowerCase();
  const queryWords = query.split(WORD_SPLIT).filter(Boolean);
  if (queryWords.length === 0) return { matches: [], total: 0 };
  const exact: SearchEntry[] = [];
  const others: SearchEntry[] = [];
  index.entries.forEach((entry, position) => {
    const [slug, name] = entry;
    const lowerName = name.toLowerCase();
    if (lowerName === query || slug === query) {
      exact.push(entry);
      return;
    }
    const nameAndSlug = index.names[position] as string;
    const prefix = lowerName.startsWith(query) || slug.startsWith(query) || nameAndSlug.startsWith(query);
    const entryWords = index.words[position] as string[];
    if (prefix || queryWords.every((word) => entryWords.some((candidate) => candidate.startsWith(word)))) others.push(entry);
  });
  const all = [...exact, ...others];
  return { matches: all.slice(0, limit), total: all.length };
}
