import * as transferRoutes from '../../shared/routes/transfers';
import { storedKeyOf } from '../lib/db/entities/stored-file';
import { getDb } from '../lib/db/service';
import { presignGet } from '../lib/files/file-bucket';
import { Conflict, NotFound, Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { recordDownload } from './lib/downloads';
import { carriesPackageGrant, resolvePackageCaller } from './lib/package-grants';
import { requirePackageAccess } from './lib/transfer-access';
import { FileNotFound } from './lib/stored-files';
import { requirePackageUnlocked } from './lib/package-password';

/** As the issue asks: a download link is good for five minutes, time enough to start the download. */
const DOWNLOAD_LINK_SECONDS = 300;

export const handler = createHandler(transferRoutes.downloadFile, async ({ params, query, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  // Anyone else was refused before the file was read, as when the route was for users only.
  if (caller.kind !== 'user' && !carriesPackageGrant(cookies)) throw new Unauthorized();
  const { data: file } = await db.entities.storedFile.get({ fileId: params.id }).go();
  if (!file || file.status !== 'ready') throw new FileNotFound();
  let member = null;
  let transfer = null;
  let downloaderId = caller.kind === 'user' ? caller.userId : null;
  if (file.purpose === 'transfer') {
    const transferId = file.transferId ?? '';
    const downloader = await resolvePackageCaller(db, { transferId, caller, cookies, now });
    downloaderId = downloader.userId;
    const isOwner = downloader.kind === 'user' && file.ownerId === downloader.userId;
    try {
      ({ transfer, member } = await requirePackageAccess(db, transferId, downloader, now));
    } catch (error) {
      // The sender may fetch their own files before sending; anyone else learns nothing.
      if (!(isOwner && error instanceof Conflict)) throw error instanceof NotFound ? new FileNotFound() : error;
    }
    if (transfer) await requirePackageUnlocked(db, transfer, downloader, cookies, now);
  }
  // A grant opens its transfer's files only: any other file wants a signed-in user.
  if (downloaderId === null) throw new Unauthorized();
  const url = await presignGet({
    key: storedKeyOf(file),
    fileName: file.name,
    contentType: file.contentType,
    disposition: query.disposition,
    expiresInSeconds: DOWNLOAD_LINK_SECONDS,
  });
  if (transfer && query.disposition === 'attachment') await recordDownload(db, transfer, member, downloaderId, file.fileId, now);
  return {
    url,
    name: file.name,
    size: file.size,
    expiresAt: new Date(now.getTime() + DOWNLOAD_LINK_SECONDS * 1000).toISOString(),
  };
});
