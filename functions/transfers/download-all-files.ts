import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { presignGet } from '../lib/files/file-bucket';
import { createHandler } from '../lib/http/create-handler';
import { ALL_FILES, claimDownload, downloaderOf } from './lib/download-log';
import { recordDownload } from './lib/downloads';
import { resolvePackageCaller } from './lib/package-grants';
import { requirePackageAccess } from './lib/transfer-access';
import { readManifest } from './lib/manifest';
import { requirePackageUnlocked } from './lib/package-password';

/** Long enough to stream a 200 GB package on a slow line: each GET starts within it, then runs as long as it needs. */
const ZIP_LINK_SECONDS = 3_600;

/** A name for the zip from the transfer's title: letters, digits and simple punctuation. */
export function zipNameOf(title: string, transferId: string): string {
  const base = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .slice(0, 80);
  return `${base || `transfer-${transferId}`}.zip`;
}

export const handler = createHandler(transferRoutes.downloadAllFiles, async ({ params, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  const downloader = await resolvePackageCaller(db, { transferId: params.id, caller, cookies, now });
  const { transfer, member, isOwner } = await requirePackageAccess(db, params.id, downloader, now);
  await requirePackageUnlocked(db, transfer, downloader, cookies, now);
  const files = (await readManifest(db, transfer)) ?? [];
  // The zip is one download, counted before any link is given.
  if (!isOwner)
    await claimDownload(db, { transfer, downloader: downloaderOf(downloader, member), fileId: ALL_FILES, fileName: '', now });
  const expiresAt = new Date(now.getTime() + ZIP_LINK_SECONDS * 1000).toISOString();
  const links = await Promise.all(
    files.map(async (file) => ({
      id: file.id,
      name: file.name,
      size: file.size,
      url: await presignGet({
        key: file.objectKey,
        fileName: file.name,
        contentType: file.type,
        disposition: 'attachment',
        expiresInSeconds: ZIP_LINK_SECONDS,
      }),
    })),
  );
  if (member && downloader.userId) await recordDownload(db, transfer, member, downloader.userId, ALL_FILES, now);
  return { name: zipNameOf(transfer.title, transfer.transferId), files: links, expiresAt };
});
