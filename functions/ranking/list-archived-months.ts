import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listArchivedMonths } from './lib/archive-reader';

export const handler = createHandler(rankingRoutes.listArchivedMonths, async () => ({
  months: (await listArchivedMonths(getDb())).map(({ month, publicationCount, topicCount }) => ({
    month,
    publicationCount,
    topicCount,
  })),
}));
