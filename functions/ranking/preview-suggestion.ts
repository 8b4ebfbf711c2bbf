import * as rankingRoutes from '../../shared/routes/ranking';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { claimLimits, describeWait } from '../lib/rate-limit';
import { createSourceFetch } from './lib/sources/source-fetch';
import {
  acceptedAtOnce,
  knownSourceOf,
  PREVIEWS_PER_HOUR,
  PREVIEW_FETCH_OPTIONS,
  readSuggestedAddress,
  suggestedPublication,
} from './lib/suggestions';

const config = getConfig();
// Kept for the container's life: robots.txt answers and each host's turn hold across calls.
const sourceFetch = createSourceFetch(config, PREVIEW_FETCH_OPTIONS);

export const handler = createHandler(rankingRoutes.previewSuggestion, async ({ body, caller }) => {
  const db = getDb();
  await claimLimits(db, [
    {
      kind: 'window',
      key: `suggestion-preview:${caller.userId}`,
      limit: PREVIEWS_PER_HOUR,
      windowSeconds: 3_600,
      message: (wait) => `You have previewed ${PREVIEWS_PER_HOUR} addresses this hour. Try again in ${describeWait(wait)}.`,
    },
  ]);
  const preview = await readSuggestedAddress(body.url, sourceFetch, new Date());
  const known = await knownSourceOf(db, preview.snapshot.canonicalId);
  return {
    publication: suggestedPublication(preview.ref.url, preview.snapshot),
    knownSlug: known?.slug ?? null,
    wouldBeAccepted: !known && acceptedAtOnce(preview.snapshot.followers, config.suggestionAutoAcceptFollowers),
  };
});
