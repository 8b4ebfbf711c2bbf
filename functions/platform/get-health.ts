import * as platformRoutes from '../../shared/routes/platform';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';

export const handler = createHandler(platformRoutes.health, async () => {
  // One cheap read proves the database answers; a failure here becomes a 503.
  await getDb().entities.rankingManifest.get({ name: 'health-probe' }).go();
  return { status: 'ok' as const, time: new Date().toISOString() };
});
