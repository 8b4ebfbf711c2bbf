import * as transferRoutes from '../../shared/routes/transfers';
import { isScriptable } from '../../shared/transfers/previews';
import { storedKeyOf } from '../lib/db/entities/stored-file';
import { getDb } from '../lib/db/service';
import { presignGet } from '../lib/files/file-bucket';
import { Conflict, NotFound, Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { claimDownload, downloaderOf, requireDownloadsLeft } from './lib/download-log';
import { recordDownload } from './lib/downloads';
import { carriesPackageGrant, resolvePackageCaller } from './lib/package-grants';
import { type PackageAccess, requirePackageAccess } from './lib/transfer-access';
import { FileNotFound } from '../lib/files/stored-files';
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
  let access: PackageAccess | null = null;
  let downloader = null;
  if (file.purpose === 'transfer') {
    const transferId = file.transferId ?? '';
    const packageCaller = await resolvePackageCaller(db, { transferId, caller, cookies, now });
    const isOwner =
      packageCaller.userId !== null && packageCaller.kind !== 'package-grant' && file.ownerId === packageCaller.userId;
    try {
      access = await requirePackageAccess(db, transferId, packageCaller, now);
      downloader = downloaderOf(packageCaller, access.member);
    } catch (error) {
      // The sender may fetch their own files before sending; anyone else learns nothing.
      if (!(isOwner && error instanceof Conflict)) throw error instanceof NotFound ? new FileNotFound() : error;
    }
    if (access) await requirePackageUnlocked(db, access.transfer, packageCaller, cookies, now);
  } else if (caller.kind !== 'user') {
    // A grant opens its transfer's files only: any other file wants a signed-in user.
    throw new Unauthorized();
  } else if (file.purpose === 'product' && file.ownerId !== caller.userId) {
    // A shop's file reaches its buyers through their order only (download-order-file.ts), counted there.
    throw new FileNotFound();
  }
  const downloading = query.disposition === 'attachment';
  if (access && downloader && !access.isOwner) {
    if (downloading) {
      await claimDownload(db, { transfer: access.transfer, downloader, fileId: file.fileId, fileName: file.name, now });
    } else {
      requireDownloadsLeft(access.transfer);
    }
  }
  const url = await presignGet({
    key: storedKeyOf(file),
    fileName: file.name,
    contentType: file.contentType,
    // A page or a drawing shown inline would run its script on the bucket's origin: only saved.
    disposition: isScriptable({ name: file.name, type: file.contentType }) ? 'attachment' : query.disposition,
    expiresInSeconds: DOWNLOAD_LINK_SECONDS,
  });
  if (access && downloading && access.member && downloader?.userId) {
    await recordDownload(db, access.transfer, access.member, downloader.userId, file.fileId, now);
  }
  return {
    url,
    name: file.name,
    size: file.size,
    expiresAt: new Date(now.getTime() + DOWNLOAD_LINK_SECONDS * 1000).toISOString(),
  };
});
