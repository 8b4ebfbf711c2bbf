import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readMonthArchive } from './lib/archive-reader';

/** One GetItem: the month's boards of the scope asked for, with the month's topics. */
export const handler = createHandler(rankingRoutes.showArchiveMonth, async ({ params, query }) =>
  readMonthArchive(getDb(), { month: `${params.year}-${params.month}`, topic: query.topic ?? null, now: new Date() }),
);
