import { describe, expect, it } from 'vitest';
import type { Db } from '../../functions/lib/db/service';
import { generateSeedData } from '../../infra/local/seed/generate-publications';
import { seedTable } from '../../infra/local/seed/seed-table';

/** A stand-in for the two batch puts seedTable uses, leaving chosen items unprocessed. */
function fakeDb(leaveUnprocessed: (attempt: number, key: string) => boolean) {
  const written = new Set<string>();
  let attempt = 0;
  const entity = (keyOf: (item: { slug: string; year?: string }) => string) => ({
    put: (items: Array<{ slug: string; year?: string }>) => ({
      go: async () => {
        attempt += 1;
        const unprocessed = items.filter((item) => leaveUnprocessed(attempt, keyOf(item)));
        for (const item of items) if (!unprocessed.includes(item)) written.add(keyOf(item));
        return { unprocessed: unprocessed.map(({ slug, year }) => (year ? { slug, year } : { slug })) };
      },
    }),
  });
  const db = {
    entities: {
      publication: entity((item) => item.slug),
      followerHistory: entity((item) => `${item.slug}#${item.year}`),
    },
  } as unknown as Db;
  return { db, written };
}

describe('seedTable', () => {
  const data = generateSeedData({ today: '2025-03-01', publications: 60, seed: 4 });
  const allKeys = [...data.publications.map((item) => item.slug), ...data.histories.map((item) => `${item.slug}#${item.year}`)];

  it('sends unprocessed items again until all are written', async () => {
    // Prepare: the first two calls leave every third item unprocessed.
    const { db, written } = fakeDb((attempt, key) => attempt <= 2 && allKeys.indexOf(key) % 3 === 0);

    // Act
    const result = await seedTable(db, data);

    // Assess
    expect(result).toMatchObject({ publications: 60, histories: data.histories.length });
    expect([...written].sort()).toEqual([...allKeys].sort());
  });

  it('gives up with an error when items stay unprocessed', async () => {
    // Prepare
    const { db } = fakeDb((_attempt, key) => key === data.publications[5]?.slug);

    // Act / Assess
    await expect(seedTable(db, data, { maxAttempts: 3 })).rejects.toThrow('1 publications still unprocessed after 3 attempts');
  });
});
