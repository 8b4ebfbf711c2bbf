/** `items` in consecutive slices of `size` (the last may be shorter). */
export function* groupsOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * Runs `work` on every item, `size` at a time: each group's calls at once, the next group once
 * they have all finished. What bounds a job's concurrent table or mail calls.
 */
export async function inGroups<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (const group of groupsOf(items, size)) await Promise.all(group.map(work));
}
