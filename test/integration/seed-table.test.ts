import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLICATION_SHARDS } from '../../functions/lib/db/entities/publication';
import type { Db } from '../../functions/lib/db/service';
import { generateSeedData, type SeedData } from '../../infra/local/seed/generate-publications';
import { isTableEmptyOfPublications, type SeedProgress, seedTable } from '../../infra/local/seed/seed-table';
import { createTestTable } from '../support/dynamo';

describe('seedTable', () => {
  let db: Db;
  let data: SeedData;

  beforeAll(async () => {
    ({ db } = await createTestTable());
    data = generateSeedData({ today: '2025-01-05', publications: 300, seed: 8 });
  });

  it('writes every publication and history item so they read back as generated', async () => {
    // Prepare
    const emptyBefore = await isTableEmptyOfPublications(db);
    const progress: SeedProgress[] = [];

    // Act
    const result = await seedTable(db, data, { concurrency: 4, onProgress: (update) => progress.push(update) });

    // Assess
    expect(emptyBefore).toBe(true);
    expect(await isTableEmptyOfPublications(db)).toBe(false);
    expect(result).toMatchObject({ publications: 300, histories: data.histories.length });
    expect(progress.filter((update) => update.kind === 'publications').at(-1)).toEqual({
      kind: 'publications',
      written: 300,
      total: 300,
    });
    expect(progress.filter((update) => update.kind === 'histories').at(-1)?.written).toBe(data.histories.length);

    const shards = await Promise.all(
      Array.from({ length: PUBLICATION_SHARDS }, (_, shard) =>
        db.entities.publication.query.byShard({ shard }).go({ pages: 'all' }),
      ),
    );
    const listed = shards.flatMap(({ data: items }) => items);
    expect(listed.map((item) => item.slug).sort()).toEqual(data.publications.map((item) => item.slug).sort());
    const sample = data.publications[17]!;
    expect((await db.entities.publication.get({ slug: sample.slug }).go()).data).toEqual(sample);
    const history = data.histories.find((item) => item.slug === sample.slug)!;
    expect((await db.entities.followerHistory.get({ slug: history.slug, year: history.year }).go()).data).toEqual(history);
  });
});
