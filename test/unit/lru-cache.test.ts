import { describe, expect, it } from 'vitest';
import { LruCache } from '../../functions/lib/lru-cache';

describe('LruCache', () => {
  it('keeps at most its capacity, forgetting the oldest entry nobody read', () => {
    // Prepare
    const cache = new LruCache<number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);

    // Act
    cache.set('d', 4);

    // Assess
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([2, 3, 4]);
  });

  it('keeps an entry read since it was stored, and forgets an older unread one instead', () => {
    // Prepare
    const cache = new LruCache<string>(3);
    cache.set('home', 'board');
    cache.set('page-2', 'two');
    cache.set('page-3', 'three');
    cache.get('home');

    // Act
    cache.set('page-4', 'four');

    // Assess
    expect(cache.get('home')).toBe('board');
    expect(cache.get('page-2')).toBeUndefined();
    expect(cache.get('page-4')).toBe('four');
  });

  it('never forgets the entry it is storing, even when every other one was read', () => {
    // Prepare
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.get('b');

    // Act
    cache.set('c', 3);

    // Assess
    expect(cache.get('c')).toBe(3);
    expect([cache.get('a'), cache.get('b')].filter((value) => value !== undefined)).toHaveLength(1);
  });

  it('replaces the value of a key it already holds without forgetting anything', () => {
    // Prepare
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);

    // Act
    cache.set('a', 10);

    // Assess
    expect([cache.get('a'), cache.get('b')]).toEqual([10, 2]);
  });
});
