import { describe, expect, it } from 'vitest';
import { groupsOf, inGroups } from '../../functions/lib/in-groups';

describe('groupsOf', () => {
  it('cuts items into consecutive slices of the size, the last one shorter', () => {
    // Act
    const groups = [...groupsOf([1, 2, 3, 4, 5, 6, 7], 3)];

    // Assess
    expect(groups).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('yields nothing for no items', () => {
    expect([...groupsOf([], 3)]).toEqual([]);
  });
});

describe('inGroups', () => {
  it('runs a group at once and the next only once it has finished', async () => {
    // Prepare
    let running = 0;
    let most = 0;
    const done: number[] = [];

    // Act
    await inGroups([1, 2, 3, 4, 5], 2, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 - item));
      done.push(item);
      running -= 1;
    });

    // Assess: never more than two at once, and every item of a group before any of the next.
    expect(most).toBe(2);
    expect(done.slice(0, 2).sort()).toEqual([1, 2]);
    expect(done.slice(2, 4).sort()).toEqual([3, 4]);
    expect(done[4]).toBe(5);
  });
});
