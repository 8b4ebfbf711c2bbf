import type { BoardKind } from '@shared/schemas/ranking';

export interface BoardFilter {
  kind: BoardKind;
  activeOnly: boolean;
  /** A topic tag, or null for every publication. */
  topic: string | null;
}

/** Where each ranking lives, both at the top level and under /topic/{tag}. */
const KIND_SEGMENTS: Record<BoardKind, string> = { followers: '', growth: '/growing', activity: '/recent' };

/**
 * The page route of a board. Topic boards have no active-only route of their own (there are
 * /active, /growing/active and /recent/active, but no /topic/{tag}/active), so their filter
 * travels as ?active=true.
 */
export function boardPath({ kind, activeOnly, topic }: BoardFilter): string {
  const segment = KIND_SEGMENTS[kind];
  if (topic) {
    const base = `/topic/${encodeURIComponent(topic)}${segment}`;
    return activeOnly ? `${base}?active=true` : base;
  }
  return activeOnly ? `${segment}/active` : segment || '/';
}

export function topicPath(tag: string): string {
  return `/topic/${encodeURIComponent(tag)}`;
}

export function topicsPagePath(page: number): string {
  return page <= 1 ? '/topics' : `/topics/${page}`;
}

/** A publication's own page. Two segments, so it can never collide with '/@username' or a page name. */
export function publicationPath(slug: string): string {
  return `/pub/${encodeURIComponent(slug)}`;
}

/** The search's address: the words, then the filters, then the page (page 1 has none). */
export function searchPath(input: { q: string; page?: number; activeOnly: boolean; topic: string | null }): string {
  const params = new URLSearchParams();
  if (input.q.trim()) params.set('q', input.q.trim());
  if (input.topic) params.set('topic', input.topic);
  if (input.activeOnly) params.set('active', 'true');
  if (input.page && input.page > 1) params.set('page', String(input.page));
  const search = params.toString();
  return search ? `/search?${search}` : '/search';
}
