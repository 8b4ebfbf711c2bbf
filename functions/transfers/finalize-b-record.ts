import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toFileView } from './lib/transfer-views';
import { finalizeFile } from './lib/finalize';
import { requireChangeableFile, requireOwnFile } from './lib/stored-files';

export const handler = createHandler(transferRoutes.finalizeBRecord, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const owned = await requireOwnFile(db, params.id, caller);
  // Finalizing again what is ready answers it, whatever became of its transfer since.
  if (owned.status === 'ready') return { file: toFileView(owned) };
  const { file, transfer } = await requireChangeableFile(db, params.id, caller, now);
  return { file: toFileView(await finalizeFile(db, file, transfer, now)) };
});
