import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import type { DailyCounts } from '../lib/db/entities/follower-history';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toDay } from './lib/domain/days';
import { computeStanding } from './lib/domain/standing';
import { cachedAnswer, getBoardReader } from './lib/ranking-context';
import { publicationSeo } from './lib/seo';

let ranks: { runId: string; bySlug: Map<string, [number, number]> } | undefined;

async function ranksOf(slug: string): Promise<{ followers: number | null; growth: number | null }> {
  const { entries, manifest } = await getBoardReader().readSearchIndex();
  if (ranks?.runId !== manifest.runId) {
    ranks = {
      runId: manifest.runId,
      bySlug: new Map(entries.map(([entrySlug, , , byFollowers, byGrowth]) => [entrySlug, [byFollowers, byGrowth]])),
    };
  }
  const found = ranks.bySlug.get(slug);
  return { followers: found?.[0] ?? null, growth: found?.[1] || null };
}

export const handler = createHandler(rankingRoutes.getPublication, async ({ params }) =>
  cachedAnswer(`getPublication|${params.slug}`, async (manifest) => {
    const db = getDb();
    const [{ data: publication }, { data: years }] = await Promise.all([
      db.entities.publication.get({ slug: params.slug }).go(),
      db.entities.followerHistory.query.bySlugAndYear({ slug: params.slug }).go({ pages: 'all' }),
    ]);
    if (!publication) throw new NotFound(`There is no publication with the slug '${params.slug}'.`);
    const history = years.flatMap((year) =>
      Object.entries(year.days as DailyCounts).map(([monthDay, followers]) => ({ day: `${year.year}-${monthDay}`, followers })),
    );
    history.sort((a, b) => (a.day < b.day ? -1 : 1));
    const { sparkline: _sparkline, ...standing } = computeStanding(publication, toDay(manifest.generatedAt));
    return {
      publication: {
        ...standing,
        description: publication.description ?? '',
        feedUrl: publication.feedUrl ?? null,
        firstSeenAt: publication.firstSeenDay,
        createdAt: publication.createdAt,
        updatedAt: publication.updatedAt,
        ranks: await ranksOf(params.slug),
      },
      history,
      seo: publicationSeo(publication.name, publication.description ?? '', standing.followers),
    };
  }),
);
