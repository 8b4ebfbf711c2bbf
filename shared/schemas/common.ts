import * as z from '../zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants';

/** What every screen-data call returns for the page's metadata. */
export const seoSchema = z.strictObject({
  title: z.string(),
  description: z.string(),
  keywords: z.array(z.string()),
  imageUrl: z.string(),
});
export type Seo = z.infer<typeof seoSchema>;

const booleanFlag = z.pipe(
  z.enum(['true', 'false', '1', '0'], { message: "Use 'true' or 'false'" }),
  z.transform((value) => value === 'true' || value === '1'),
);

/**
 * Paging shared by every list endpoint, so all lists page alike: `from` is a zero-based offset, `page` is
 * one-based. A huge limit is capped rather than refused; negative values are refused.
 */
export const pagingShape = {
  from: z.optional(
    z.coerce
      .number({ message: 'Must be a number' })
      .check(z.int('Must be a whole number'), z.minimum(0, 'Must be 0 or more'), z.maximum(1_000_000)),
  ),
  page: z.optional(
    z.coerce
      .number({ message: 'Must be a number' })
      .check(z.int('Must be a whole number'), z.minimum(1, 'Pages start at 1'), z.maximum(100_000)),
  ),
  limit: z._default(
    z.pipe(
      z.coerce.number({ message: 'Must be a number' }).check(z.int('Must be a whole number'), z.minimum(1, 'Must be at least 1')),
      z.transform((limit) => Math.min(limit, MAX_PAGE_SIZE)),
    ),
    DEFAULT_PAGE_SIZE,
  ),
  sortOrder: z._default(z.enum(['desc', 'asc'], { message: "Use 'desc' or 'asc'" }), 'desc'),
};

export const activeFlag = z._default(booleanFlag, false);

export const pageInfoSchema = z.strictObject({
  from: z.number(),
  limit: z.number(),
  page: z.number(),
  total: z.number(),
  sortOrder: z.enum(['desc', 'asc']),
  hasMore: z.boolean(),
});
export type PageInfo = z.infer<typeof pageInfoSchema>;

export interface PagingInput {
  from?: number | undefined;
  page?: number | undefined;
  limit: number;
  sortOrder: 'desc' | 'asc';
}

/** Turns the paging query into an offset; `from` wins over `page` when both are given. */
export function resolvePaging(input: PagingInput, total: number): PageInfo {
  const from = input.from ?? ((input.page ?? 1) - 1) * input.limit;
  return {
    from,
    limit: input.limit,
    page: Math.floor(from / input.limit) + 1,
    total,
    sortOrder: input.sortOrder,
    hasMore: from + input.limit < total,
  };
}

export const errorBodySchema = z.catchall(
  z.object({
    message: z.string(),
    code: z.string(),
  }),
  z.unknown(),
);
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * Where the next page of a cursor-paged list starts: an opaque token from the previous page's
 * `nextCursor`, null on the last page. Only its shape is checked here; the server checks that
 * it belongs to the list asked for.
 */
export const cursorQueryShape = {
  cursor: z.optional(
    z
      .string()
      .check(z.maxLength(1_024, 'That page link is not valid'), z.regex(/^[A-Za-z0-9_-]+={0,2}$/, 'That page link is not valid')),
  ),
};
