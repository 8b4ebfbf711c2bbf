import type { InfiniteData } from '@tanstack/react-query';
import type { Comment, CommentPage } from '../api/story-keys';

/** A comment with the replies under it, as the page nests them. */
export interface CommentNode {
  comment: Comment;
  replies: CommentNode[];
  /** Every comment under it, at any depth: what collapsing the thread hides. */
  descendantCount: number;
}

/**
 * The loaded pages as one list in reading order. A comment posted here is put into the pages
 * at once (withPostedComment), so a page loaded later may bring it again: the first copy stays.
 */
export function loadedComments(pages: readonly CommentPage[]): Comment[] {
  const seen = new Set<string>();
  const items: Comment[] = [];
  for (const page of pages) {
    for (const comment of page.items) {
      if (seen.has(comment.id)) continue;
      seen.add(comment.id);
      items.push(comment);
    }
  }
  return items;
}

/**
 * Threads from the API's reading order (each comment followed by its replies): every comment
 * goes under its parent. One whose parent is not listed (left out for the reader, or on a page
 * not loaded yet) starts a thread of its own rather than disappearing.
 */
export function buildThreads(comments: readonly Comment[]): CommentNode[] {
  const nodes = new Map<string, CommentNode>();
  const roots: CommentNode[] = [];
  for (const comment of comments) {
    const node: CommentNode = { comment, replies: [], descendantCount: 0 };
    nodes.set(comment.id, node);
    const parent = comment.parentId ? nodes.get(comment.parentId) : undefined;
    if (parent) parent.replies.push(node);
    else roots.push(node);
  }
  const count = (node: CommentNode): number => {
    node.descendantCount = node.replies.reduce((sum, reply) => sum + 1 + count(reply), 0);
    return node.descendantCount;
  };
  for (const root of roots) count(root);
  return roots;
}

type Pages = InfiniteData<CommentPage, unknown>;

const mapItems = (data: Pages, change: (items: Comment[]) => Comment[]): Pages => ({
  ...data,
  pages: data.pages.map((page) => ({ ...page, items: change(page.items) })),
});

/**
 * The pages with a comment just posted put where the API will list it: a reply after the last
 * comment of its parent's thread (its parent's replyCount one more), a comment on the story at
 * the end of what is loaded.
 */
export function withPostedComment(data: Pages, comment: Comment, commentCount: number): Pages {
  const pages = data.pages.map((page) => ({ ...page, items: [...page.items], commentCount }));
  let target: { page: number; index: number } | undefined;
  if (comment.parentId) {
    let parentDepth: number | undefined;
    let threadEnded = false;
    for (const [pageIndex, page] of pages.entries()) {
      for (const [index, item] of page.items.entries()) {
        if (parentDepth === undefined) {
          if (item.id !== comment.parentId) continue;
          parentDepth = item.depth;
          page.items[index] = { ...item, replyCount: item.replyCount + 1 };
        } else if (item.depth <= parentDepth) {
          threadEnded = true;
          break;
        }
        // The parent, or a comment still inside its thread: the reply goes after it.
        target = { page: pageIndex, index: index + 1 };
      }
      if (threadEnded) break;
    }
  }
  const at = target ?? { page: pages.length - 1, index: pages.at(-1)?.items.length ?? 0 };
  pages[at.page]?.items.splice(at.index, 0, comment);
  return { ...data, pages };
}

/** The pages with one comment's new state (an edit, a placeholder left by a delete or removal). */
export function withChangedComment(data: Pages, comment: Comment, commentCount: number): Pages {
  const changed = mapItems(data, (items) => items.map((item) => (item.id === comment.id ? comment : item)));
  return { ...changed, pages: changed.pages.map((page) => ({ ...page, commentCount })) };
}

/** The pages without a comment deleted altogether (it had no replies), its parent one reply less. */
export function withoutComment(data: Pages, id: string, commentCount: number): Pages {
  const parentId = data.pages.flatMap((page) => page.items).find((item) => item.id === id)?.parentId;
  const changed = mapItems(data, (items) =>
    items
      .filter((item) => item.id !== id)
      .map((item) => (item.id === parentId ? { ...item, replyCount: Math.max(0, item.replyCount - 1) } : item)),
  );
  return { ...changed, pages: changed.pages.map((page) => ({ ...page, commentCount })) };
}
