import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { requirePackageAccess } from './lib/transfer-access';
import { toFileView } from './lib/transfer-views';
import { FileNotFound } from '../lib/files/stored-files';
import { requirePackageUnlocked } from './lib/package-password';

/** Images are public; a transfer's file is its sender's, and its recipients' once sent. */
export const handler = createHandler(transferRoutes.getFile, async ({ params, caller, cookies }) => {
  const db = getDb();
  const { data: file } = await db.entities.storedFile.get({ fileId: params.id }).go();
  if (!file) throw new FileNotFound();
  if (file.purpose === 'image') {
    if (file.status !== 'ready' && (caller.kind !== 'user' || caller.userId !== file.ownerId)) throw new FileNotFound();
    return { file: toFileView(file) };
  }
  if (caller.kind !== 'user') throw new FileNotFound();
  if (file.ownerId === caller.userId) return { file: toFileView(file) };
  const now = new Date();
  const { transfer } = await requirePackageAccess(db, file.transferId ?? '', caller, now).catch((error: unknown) => {
    throw error instanceof NotFound ? new FileNotFound() : error;
  });
  await requirePackageUnlocked(db, transfer, caller, cookies, now);
  if (file.status !== 'ready') throw new FileNotFound();
  return { file: toFileView(file) };
});
