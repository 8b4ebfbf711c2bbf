import * as z from '../zod';

/** Longest page path the renderer reads; longer ones are no page of ours. */
const MAX_PAGE_PATH_LENGTH = 512;

/**
 * What the edge sends the page renderer: the page's raw path (still percent-encoded, as the
 * browser sent it) and the one query parameter a public page reads, a topic board's
 * `?active=true`. The edge drops every other parameter (utm_…, fbclid…), so tracking links
 * share one cached page instead of each costing a render.
 */
export const pageQuerySchema = z.strictObject({
  path: z.string().check(z.minLength(1), z.maxLength(MAX_PAGE_PATH_LENGTH), z.startsWith('/', 'A page path starts with /')),
  active: z.optional(z.enum(['true'], { message: "Use 'true' or leave it out" })),
});

/** Which child sitemap to answer; absent for the sitemap (or sitemap index) at /sitemap.xml. */
export const sitemapQuerySchema = z.strictObject({
  part: z.optional(
    z.coerce
      .number({ message: 'Must be a number' })
      .check(z.int('Must be a whole number'), z.minimum(1, 'Parts start at 1'), z.maximum(10_000)),
  ),
});

/** An HTML page, an XML sitemap or robots.txt: text, with its own content type. */
export const textDocumentSchema = z.string();
