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
    // An active board counts the active publications it ranks, not every publication.
    seo: boardSeo(
      kind,
      query.active,
      topic,
      query.active ? (manifest.boardTotals[`${kind}.active`] ?? 0) : manifest.publicationCount,
    ),
    page,
    topic,
    // Chips need the counts only: the leaders are for /topics.
    popularTopics: manifest.topics.slice(0, POPULAR_TOPICS).map(topicCounts),
  };
}
