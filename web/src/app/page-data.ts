import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** The id of the element the page renderer puts the first screen's data in (functions/web-pages). */
const PAGE_DATA_ELEMENT_ID = 'page-data';
/** Marks the head tags the renderer wrote that PageMeta renders again once the app runs. */
const PAGE_META_SELECTOR = '[data-page-meta]';

interface PageData {
  queries: { key: QueryKey; infinite: boolean; data: unknown }[];
}

/**
 * Puts the data a rendered page carries into the query cache, under the keys its screen's hooks
 * use and as fresh as a fetched answer, so the first render shows it without asking the API
 * again. A page without data (the plain app shell) changes nothing.
 */
export function seedQueryCache(queryClient: QueryClient, doc: Document = document): number {
  const element = doc.getElementById(PAGE_DATA_ELEMENT_ID);
  if (!element?.textContent) return 0;
  let parsed: PageData;
  try {
    parsed = JSON.parse(element.textContent) as PageData;
  } catch {
    return 0;
  }
  const updatedAt = Date.now();
  for (const query of parsed.queries ?? []) {
    const data = query.infinite ? { pages: [query.data], pageParams: [undefined] } : query.data;
    queryClient.setQueryData(query.key, data, { updatedAt });
  }
  return parsed.queries?.length ?? 0;
}

/** The renderer's head tags that PageMeta writes again, removed so none is there twice. */
export function removeRenderedHeadTags(doc: Document = document): void {
  for (const element of doc.head.querySelectorAll(PAGE_META_SELECTOR)) element.remove();
}
