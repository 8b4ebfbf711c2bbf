import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../shared/constants';
import { resolvePaging } from '../../shared/schemas/common';
import { boardQuerySchema, searchQuerySchema } from '../../shared/schemas/ranking';

describe('boardQuerySchema', () => {
  it('fills in defaults for an empty query', () => {
    // Act
    const query = boardQuerySchema.parse({});

    // Assess
    expect(query).toEqual({ limit: DEFAULT_PAGE_SIZE, sortOrder: 'desc', active: false });
  });

  it(`caps a huge limit at ${MAX_PAGE_SIZE} instead of refusing it`, () => {
    expect(boardQuerySchema.parse({ limit: '5000' }).limit).toBe(MAX_PAGE_SIZE);
    expect(boardQuerySchema.parse({ limit: '7' }).limit).toBe(7);
  });

  it('refuses a zero limit, a negative from and a page below 1', () => {
    // Act
    const result = boardQuerySchema.safeParse({ limit: '0', from: '-1', page: '0' });

    // Assess
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['from', 'limit', 'page']);
  });

  it('refuses a from that is not a whole number', () => {
    expect(boardQuerySchema.safeParse({ from: 'abc' }).success).toBe(false);
    expect(boardQuerySchema.safeParse({ from: '2.5' }).success).toBe(false);
  });

  it('parses the active flag', () => {
    expect(boardQuerySchema.parse({ active: 'true' }).active).toBe(true);
    expect(boardQuerySchema.parse({ active: '1' }).active).toBe(true);
    expect(boardQuerySchema.parse({ active: 'false' }).active).toBe(false);
    expect(boardQuerySchema.parse({ active: '0' }).active).toBe(false);
    expect(boardQuerySchema.safeParse({ active: 'yes' }).success).toBe(false);
  });

  it('accepts asc and desc and nothing else as sort order', () => {
    expect(boardQuerySchema.parse({ sortOrder: 'asc' }).sortOrder).toBe('asc');
    expect(boardQuerySchema.safeParse({ sortOrder: 'up' }).success).toBe(false);
  });

  it('refuses an unknown query field', () => {
    // Act
    const result = boardQuerySchema.safeParse({ limit: '10', colour: 'blue' });

    // Assess
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['colour'] });
  });

  it('accepts a topic tag and refuses one that is not a tag', () => {
    expect(boardQuerySchema.parse({ topic: 'machine-learning' }).topic).toBe('machine-learning');
    expect(boardQuerySchema.safeParse({ topic: 'Machine Learning' }).success).toBe(false);
  });

  it('reads a topic in capitals as its lower-case tag', () => {
    expect(boardQuerySchema.parse({ topic: 'Technology' }).topic).toBe('technology');
    expect(boardQuerySchema.parse({ topic: 'Machine-Learning' }).topic).toBe('machine-learning');
  });
});

describe('searchQuerySchema', () => {
  it('trims the query and refuses a blank one', () => {
    expect(searchQuerySchema.parse({ q: '  data  ' }).q).toBe('data');
    expect(searchQuerySchema.safeParse({ q: '   ' }).success).toBe(false);
  });
});

describe('resolvePaging', () => {
  const paging = (query: Record<string, string>, total: number) => resolvePaging(boardQuerySchema.parse(query), total);

  it('turns a one-based page into an offset', () => {
    expect(paging({ page: '3', limit: '10' }, 100)).toEqual({
      from: 20,
      limit: 10,
      page: 3,
      total: 100,
      sortOrder: 'desc',
      hasMore: true,
    });
  });

  it('starts at the first row without from or page', () => {
    expect(paging({}, 5)).toMatchObject({ from: 0, page: 1, limit: DEFAULT_PAGE_SIZE, hasMore: false });
  });

  it('lets from win over page', () => {
    expect(paging({ from: '40', page: '2', limit: '20' }, 100)).toMatchObject({ from: 40, page: 3 });
  });

  it('says whether more rows follow', () => {
    expect(paging({ from: '80', limit: '20' }, 100).hasMore).toBe(false);
    expect(paging({ from: '79', limit: '20' }, 100).hasMore).toBe(true);
    expect(paging({ from: '200', limit: '20' }, 100).hasMore).toBe(false);
  });

  it('keeps the sort order asked for', () => {
    expect(paging({ sortOrder: 'asc' }, 10).sortOrder).toBe('asc');
  });
});
