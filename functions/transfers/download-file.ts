import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { presignGet } from '../lib/files/file-bucket';
import { Conflict, NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { recordDownload } from './lib/downloads';
import { requirePackageAccess } from './lib/transfer-access';
import { FileNotFound } from './lib/stored-files';

/** As the issue asks: a download link is good for five minutes, time enough to start the download. */
const DOWNLOAD_LINK_SECONDS = 300;

export const handler = createHandler(transferRoutes.downloadFile, async ({ params, query, caller }) => {
  const db = getDb();
  const now = new Date();
  const { data: file } = await db.entities.storedFile.get({ fileId: params.id }).go();
  if (!file || file.status !== 'ready') throw new FileNotFound();
  let member = null;
  let transfer = null;
  if (file.purpose === 'transfer') {
    const isOwner = file.ownerId === caller.userId;
    try {
      ({ transfer, member } = await requirePackageAccess(db, file.transferId ?? '', caller, now));
    } catch (error) {
      // The sender may fetch their own files before sending; anyone else learns nothing.
      if (!(isOwner && error instanceof Conflict)) throw error instanceof NotFound ? new FileNotFound() : error;
    }
  }
  const url = await presignGet({
    key: file.objectKey,
    fileName: file.name,
    contentType: file.contentType,
    disposition: query.disposition,
    expiresInSeconds: DOWNLOAD_LINK_SECONDS,
  });
  if (transfer && query.disposition === 'attachment') await recordDownload(db, transfer, member, caller.userId, file.fileId, now);
  return {
    url,
    name: file.name,
    size: file.size,
    expiresAt: new Date(now.getTime() + DOWNLOAD_LINK_SECONDS * 1000).toISOString(),
  };
});
