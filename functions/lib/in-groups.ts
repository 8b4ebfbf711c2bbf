/**
 * Runs `work` on every item, `size` at a time: each group's calls at once, the next group once
 * they have all finished. What bounds a job's concurrent table or mail calls.
 */
export async function inGroups<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(work));
}
