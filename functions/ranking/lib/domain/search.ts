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

export interface SearchOptions {
  from: number;
  limit: number;
  /** Only publications that posted in the active window. */
  activeOnly?: boolean;
  /** Only publications of the topic at this position of the run's topics; null for any. */
  topicPosition?: number | null;
}

/**
 * Publications whose name or slug starts with the query, or in which every query word starts
 * a word of the name or slug, narrowed by the filters. Exact name or slug matches come first,
 * then by followers (the index is kept in follower order, so a stable filter preserves it).
 * Answers one page of them and how many there are in all.
 */
export function searchPublications(
  index: SearchIndex,
  rawQuery: string,
  options: SearchOptions,
): { matches: SearchEntry[]; total: number } {
  const query = rawQuery.trim().toLowerCase();
  const queryWords = query.split(WORD_SPLIT).filter(Boolean);
  if (queryWords.length === 0) return { matches: [], total: 0 };
  const { activeOnly = false, topicPosition = null } = options;
  const exact: SearchEntry[] = [];
  const others: SearchEntry[] = [];
  index.entries.forEach((entry, position) => {
    const [slug, name, , , , active, topics] = entry;
    if (activeOnly && active !== 1) return;
    if (topicPosition !== null && !topics?.includes(topicPosition)) return;
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
  return { matches: all.slice(options.from, options.from + options.limit), total: all.length };
}
