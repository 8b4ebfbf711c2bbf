import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { resolvePackageCaller } from './lib/package-grants';
import { requirePackageAccess } from './lib/transfer-access';
import { readVotes } from './lib/transfer-reads';
import { requirePackageUnlocked } from './lib/package-password';

export const handler = createHandler(transferRoutes.listMyVotes, async ({ params, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  const voter = await resolvePackageCaller(db, { transferId: params.id, caller, cookies, now });
  const { transfer } = await requirePackageAccess(db, params.id, voter, now);
  await requirePackageUnlocked(db, transfer, voter, cookies, now);
  // An anonymous visitor with the link has no votes.
  return { votes: voter.userId ? Object.fromEntries(await readVotes(db, params.id, voter.userId)) : {} };
});
