import type * as z from '../../../shared/zod';
import type { BoardKind, BoardScreen, boardQuerySchema } from '../../../shared/schemas/ranking';
import { topicCounts } from './domain/boards';
import { getBoardReader } from './ranking-context';
import { boardSeo } from './seo';

export type BoardQuery = z.output<typeof boardQuerySchema>;

const POPULAR_TOPICS = 12;

/** Board pages are answered without the internal run id. */
export async function readBoardPage(kind: BoardKind, query: BoardQuery) {
  const { runId: _runId, ...page } = await getBoardReader().readBoardPage(
    { kind, activeOnly: query.active, topic: query.topic ?? null },
    query,
  );
  return page;
}

/** Screen data for a board page: the first page of rows, the topic, popular topics and SEO. */
export async function readBoardScreen(kind: BoardKind, query: BoardQuery): Promise<BoardScreen> {
  const reader = getBoardReader();
  const manifest = await reader.getManifest();
  const topic = query.topic ? topicCounts(reader.findTopic(manifest, query.topic)) : null;
  const page = await readBoardPage(kind, query);
  return {
    // A board counts the publications it ranks: the active ones, or those with known followers.
    seo: boardSeo(kind, query.active, topic, manifest.boardTotals[`${kind}.${query.active ? 'active' : 'all'}`] ?? 0),
    page,
    topic,
    // Chips need the counts only: the leaders are for /topics.
    popularTopics: manifest.topics.slice(0, POPULAR_TOPICS).map(topicCounts),
  };
}
