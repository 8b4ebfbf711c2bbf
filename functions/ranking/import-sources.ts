import * as rankingRoutes from '../../shared/routes/ranking';
import type { ImportResult } from '../../shared/schemas/suggestions';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { HttpError } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { addSource } from './lib/sources/add-source';
import { createSourceFetch } from './lib/sources/source-fetch';
import { IMPORT_FETCH_OPTIONS, readSuggestedAddress } from './lib/suggestions';

const config = getConfig();
const sourceFetch = createSourceFetch(config, IMPORT_FETCH_OPTIONS);

/** Who added an imported publication, as its source records it. */
const IMPORTED_BY = 'import';

export const handler = createHandler(rankingRoutes.importSources, async ({ body }) => {
  const db = getDb();
  const results: ImportResult[] = [];
  // One after another: the polite fetch keeps one request at a time per host anyway, and a
  // failure of one address is its own line of the report, never the whole call's.
  for (const url of body.urls) {
    try {
      const preview = await readSuggestedAddress(url, sourceFetch, new Date());
      const { kind, source } = await addSource(db, preview, IMPORTED_BY);
      results.push({ url, outcome: kind, slug: source.slug, name: preview.snapshot.name, reason: null });
    } catch (error) {
      // What readSuggestedAddress answers (the platform asking us to slow down included) is this
      // address's failure; anything else (the table out of reach) is the call's.
      if (!(error instanceof HttpError) || (error.statusCode >= 500 && error.statusCode !== 503)) throw error;
      results.push({ url, outcome: 'failed', slug: null, name: null, reason: error.message });
    }
  }
  return { results };
});
