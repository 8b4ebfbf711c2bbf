const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The parts of a name a search matched, by the server's rule (functions/ranking/lib/domain/search.ts): the name
 * starting with the query, or each query word starting a word of the name. Answers
 * [start, end) ranges in order, for <mark>; none when only the slug matched.
 */
export function matchRanges(name: string, query: string): [number, number][] {
  const lowerName = name.toLowerCase();
  const lowerQuery = query.trim().toLowerCase();
  if (!lowerQuery) return [];
  if (lowerName.startsWith(lowerQuery)) return [[0, lowerQuery.length]];
  const queryWords = lowerQuery.match(WORD) ?? [];
  const ranges: [number, number][] = [];
  for (const word of queryWords) {
    const found = [...lowerName.matchAll(WORD)].find((candidate) => candidate[0].startsWith(word));
    // Every word must start a word of the name; otherwise the slug matched, and the name has nothing to mark.
    if (found?.index === undefined) return [];
    ranges.push([found.index, found.index + word.length]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}
