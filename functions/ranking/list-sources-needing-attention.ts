import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listSourcesNeedingAttention } from './lib/sources/attention';

export const handler = createHandler(rankingRoutes.listSourcesNeedingAttention, () => listSourcesNeedingAttention(getDb()));
