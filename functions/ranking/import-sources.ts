import * as rankingRoutes from '../../shared/routes/ranking';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { addSource } from './lib/sources/add-source';
import { createSourceFetch } from './lib/sources/source-fetch';
import { IMPORT_FETCH_OPTIONS, importAddresses, readSuggestedAddress } from './lib/suggestions';

const config = getConfig();
const sourceFetch = createSourceFetch(config, IMPORT_FETCH_OPTIONS);

/** Who added an imported publication, as its source records it. */
const IMPORTED_BY = 'import';

export const handler = createHandler(rankingRoutes.importSources, async ({ body, remainingTimeMs }) => {
  const db = getDb();
  const results = await importAddresses(body.urls, {
    read: (url) => readSuggestedAddress(url, sourceFetch, new Date()),
    add: (preview) => addSource(db, preview, IMPORTED_BY),
    remainingTimeMs,
  });
  return { results };
});
