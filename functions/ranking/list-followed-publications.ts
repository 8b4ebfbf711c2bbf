import * as rankingRoutes from '../../shared/routes/ranking';
import type { FollowedPublication } from '../../shared/schemas/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toDay } from './lib/domain/days';
import { computeStanding } from './lib/domain/standing';
import { listPublicationFollows } from './lib/publication-follows';
import { readPublications } from './lib/publication-reads';
import { getBoardReader } from './lib/ranking-context';

/** Overall ranks by slug, rebuilt once per ranking run from the search index (cached by the reader). */
let ranks: { runId: string; bySlug: Map<string, [number, number]> } | undefined;

async function overallRanks(): Promise<{ bySlug: Map<string, [number, number]>; generatedAt: string }> {
  const { entries, manifest } = await getBoardReader().readSearchIndex();
  if (ranks?.runId !== manifest.runId) {
    ranks = {
      runId: manifest.runId,
      bySlug: new Map(entries.map(([slug, , , byFollowers, byGrowth]) => [slug, [byFollowers, byGrowth]])),
    };
  }
  return { bySlug: ranks.bySlug, generatedAt: manifest.generatedAt };
}

export const handler = createHandler(rankingRoutes.listFollowedPublications, async ({ caller }) => {
  const db = getDb();
  const [follows, { bySlug, generatedAt }] = await Promise.all([
    listPublicationFollows(db, { userId: caller.userId }),
    overallRanks(),
  ]);
  const publications = await readPublications(
    db,
    follows.map(({ slug }) => slug),
  );
  const today = toDay(generatedAt);
  const items: FollowedPublication[] = follows.flatMap((follow) => {
    const publication = publications.get(follow.slug);
    if (!publication) return [];
    const [followers, growth] = bySlug.get(follow.slug) ?? [];
    return [
      {
        ...computeStanding(publication, today),
        ranks: { followers: followers ?? null, growth: growth || null },
        followedAt: follow.createdAt,
      },
    ];
  });
  return { items, generatedAt };
});
