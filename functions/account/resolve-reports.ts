import * as accountRoutes from '../../shared/routes/account';
import { normaliseUserId } from '../../shared/schemas/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { resolveReportsOf } from '../lib/reports';

export const handler = createHandler(accountRoutes.resolveReports, async ({ params, caller }) => {
  // A reported user is stored under their normalised id, as the report route stores it.
  const objectId = params.objectType === 'user' ? normaliseUserId(params.objectId) : params.objectId;
  const resolved = await resolveReportsOf(getDb(), {
    objectType: params.objectType,
    objectId,
    resolution: params.resolution,
    resolvedBy: caller.userId,
  });
  return { resolved };
});
