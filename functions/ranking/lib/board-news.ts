import { getBatch, writeBatch } from '../../lib/db/batches';
import type { BoardFeedItem } from '../../lib/db/entities/board-feed';
import type { Db } from '../../lib/db/service';
import {
  type BoardNewsEntry,
  type BoardNewsState,
  NEWS_BOARD_KINDS,
  NEWS_ROWS_READ,
  type NewsRow,
  nextBoardNews,
} from './domain/board-news';
import { boardId } from './domain/boards';
import { parseBoardId } from './domain/rank-history';

/** BatchGetItem's limit. */
const READ_GROUP = 100;
const WRITE_CONCURRENCY = 4;

export interface BoardNewsReport {
  boards: number;
  written: number;
  ms: number;
}

/**
 * After a ranking run: each feed board's news brought up to date (functions/ranking/lib/domain/board-news.ts).
 * One BatchGetItem per 100 boards, and a write only for the boards whose news changed: on most
 * runs a few most followed boards whose top took someone in, and once a week every fastest
 * growing board.
 */
export async function recordBoardNews(
  db: Db,
  input: {
    boardIds: Iterable<string>;
    /** The board's first `limit` rows, in rank order. */
    rowsOf: (boardId: string, limit: number) => NewsRow[];
    runId: string;
    now: Date;
  },
): Promise<BoardNewsReport> {
  const started = performance.now();
  const ids = [...input.boardIds].filter((id) => {
    const board = parseBoardId(id);
    return board !== null && !board.activeOnly && NEWS_BOARD_KINDS.includes(board.kind);
  });
  const stored = new Map<string, BoardFeedItem>();
  for (let start = 0; start < ids.length; start += READ_GROUP) {
    const found = await getBatch({
      keys: ids.slice(start, start + READ_GROUP).map((id) => ({ boardId: id })),
      send: (keys) => db.entities.boardFeed.get(keys).go({ consistent: true }),
      what: 'board feeds',
    });
    for (const item of found) stored.set(item.boardId, item);
  }
  const updatedAt = input.now.toISOString();
  const items: BoardFeedItem[] = [];
  for (const id of ids) {
    const previous = stored.get(id);
    // A run repeated (the same run id) changes nothing.
    if (previous?.runId === input.runId) continue;
    const kind = parseBoardId(id)?.kind === 'growth' ? 'growth' : 'followers';
    const next = nextBoardNews(kind, previous && stateOf(previous), input.rowsOf(id, NEWS_ROWS_READ[kind]), input.now);
    if (!next) continue;
    items.push({
      boardId: id,
      runId: input.runId,
      entries: next.entries,
      updatedAt,
      ...(next.top ? { top: next.top } : {}),
      ...(next.week ? { week: next.week } : {}),
    });
  }
  await writeBatch({
    items,
    send: (pending) => db.entities.boardFeed.put(pending).go({ concurrent: WRITE_CONCURRENCY }),
    keyOf: (key) => key.boardId,
    what: 'board feeds',
  });
  return { boards: ids.length, written: items.length, ms: Math.round(performance.now() - started) };
}

function stateOf(item: BoardFeedItem): BoardNewsState {
  return { top: item.top, week: item.week, entries: item.entries as BoardNewsEntry[] };
}

/** A board's news for its feed, newest first, and when it last changed: one GetItem. */
export async function readBoardNews(
  db: Db,
  board: { kind: 'followers' | 'growth'; topic: string | null },
): Promise<{ entries: BoardNewsEntry[]; updatedAt: string | null }> {
  const { data } = await db.entities.boardFeed.get({ boardId: boardId({ ...board, activeOnly: false }) }).go();
  return { entries: (data?.entries ?? []) as BoardNewsEntry[], updatedAt: data?.updatedAt ?? null };
}
