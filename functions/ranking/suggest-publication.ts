import * as rankingRoutes from '../../shared/routes/ranking';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { claimLimits, describeWait } from '../lib/rate-limit';
import { createSourceFetch } from './lib/sources/source-fetch';
import { PREVIEW_FETCH_OPTIONS, readSuggestedAddress, SUGGESTIONS_PER_DAY, suggestPublication } from './lib/suggestions';

const config = getConfig();
const sourceFetch = createSourceFetch(config, PREVIEW_FETCH_OPTIONS);

export const handler = createHandler(rankingRoutes.suggestPublication, async ({ body, caller }) => {
  const db = getDb();
  const now = new Date();
  const limits = await claimLimits(db, [
    {
      kind: 'window',
      key: `suggestion:${caller.userId}`,
      limit: SUGGESTIONS_PER_DAY,
      windowSeconds: 86_400,
      message: (wait) => `You have made ${SUGGESTIONS_PER_DAY} suggestions today. Try again in ${describeWait(wait)}.`,
    },
  ]);
  // Read again rather than trusting a preview the browser sends back: what is stored is what we read.
  const preview = await readSuggestedAddress(body.url, sourceFetch, now).catch(async (error: unknown) => {
    // An address that led nowhere is not a suggestion made: it does not count.
    await limits.release();
    throw error;
  });
  const { suggestion, created } = await suggestPublication(db, {
    preview,
    userId: caller.userId,
    autoAcceptFollowers: config.suggestionAutoAcceptFollowers,
    now,
  });
  if (!created) await limits.release();
  return reply({ suggestion, alreadyKnown: !created }, { status: created ? 201 : 200 });
});
