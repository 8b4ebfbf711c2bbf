import { describe, expect, it } from 'vitest';
import { PUBLICATION_SHARDS } from '../../functions/lib/db/entities/publication';
import { shardOf } from '../../functions/ranking/lib/domain/shard';

describe('shardOf', () => {
  it('puts known slugs in the shards FNV-1a gives them', () => {
    // Act
    const shards = ['the-startup', 'towards-data-science', 'better-programming'].map(shardOf);

    // Assess: values from an independent FNV-1a 32-bit implementation; a changed hash would
    // strand every stored publication in the wrong shard, so it must fail here.
    expect(shards).toEqual([4, 1, 15]);
  });

  it('spreads many slugs evenly over all shards', () => {
    // Prepare
    const counts = new Array<number>(PUBLICATION_SHARDS).fill(0);

    // Act
    for (let index = 0; index < 16_000; index += 1) {
      const shard = shardOf(`publication-${index}`);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }

    // Assess
    const expected = 16_000 / PUBLICATION_SHARDS;
    for (const count of counts) {
      expect(count).toBeGreaterThan(expected * 0.85);
      expect(count).toBeLessThan(expected * 1.15);
    }
  });
});
