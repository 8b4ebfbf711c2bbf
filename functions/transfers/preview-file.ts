import * as transferRoutes from '../../shared/routes/transfers';
import { isInlineKind, previewKindOf, TEXT_PREVIEW_CONTENT_TYPE } from '../../shared/transfers/previews';
import { storedKeyOf } from '../lib/db/entities/stored-file';
import { getDb } from '../lib/db/service';
import { presignGet } from '../lib/files/file-bucket';
import { Conflict, NotFound, Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { requireDownloadsLeft } from './lib/download-log';
import { carriesPackageGrant, resolvePackageCaller } from './lib/package-grants';
import { requirePackageUnlocked } from './lib/package-password';
import { requirePackageAccess } from './lib/transfer-access';
import { FileNotFound } from '../lib/files/stored-files';

/** As long as a download link: the page asks again for a preview opened later. */
const PREVIEW_LINK_SECONDS = 300;

class NoPreview extends Conflict {
  constructor(name: string) {
    super(`${name} cannot be previewed in the browser: download it instead.`);
  }
}

/**
 * A preview link is for exactly those a download link is for (the same checks as
 * download-file.ts), but it is a view: nothing is recorded as a download and the sender is not
 * told.
 */
export const handler = createHandler(transferRoutes.previewFile, async ({ params, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  if (caller.kind !== 'user' && !carriesPackageGrant(cookies)) throw new Unauthorized();
  const { data: file } = await db.entities.storedFile.get({ fileId: params.id }).go();
  if (!file || file.status !== 'ready') throw new FileNotFound();
  if (file.purpose === 'transfer') {
    const transferId = file.transferId ?? '';
    // The package's own rule decides: its sender, a recipient, or whoever opened its link.
    const viewer = await resolvePackageCaller(db, { transferId, caller, cookies, now });
    const isOwner = viewer.kind === 'user' && file.ownerId === viewer.userId;
    try {
      const access = await requirePackageAccess(db, transferId, viewer, now);
      await requirePackageUnlocked(db, access.transfer, viewer, cookies, now);
      if (!access.isOwner) {
        requireDownloadsLeft(access.transfer);
        // A view for the sender's figures; an ADD, so parallel previews all count.
        await db.entities.transfer.patch({ transferId }).add({ previewCount: 1 }).go();
      }
    } catch (error) {
      // The sender may look at their own files before sending; anyone else learns nothing.
      if (!(isOwner && error instanceof Conflict)) throw error instanceof NotFound ? new FileNotFound() : error;
    }
  } else if (caller.kind !== 'user') {
    // A grant opens its transfer's files only: any other file wants a signed-in user.
    throw new Unauthorized();
  } else if (file.purpose === 'product' && file.ownerId !== caller.userId) {
    // A shop's file reaches its buyers through their order only (download-order-file.ts), counted there.
    throw new FileNotFound();
  }

  const kind = previewKindOf({ name: file.name, type: file.contentType });
  if (kind === 'none') throw new NoPreview(file.name);
  // Text (HTML and SVG included) is only ever read by the page: as plain text, and saved rather
  // than shown should the link be opened by itself.
  const inline = isInlineKind(kind);
  const contentType = inline ? file.contentType : TEXT_PREVIEW_CONTENT_TYPE;
  const disposition = inline ? 'inline' : 'attachment';
  const url = await presignGet({
    key: storedKeyOf(file),
    fileName: file.name,
    contentType,
    disposition,
    expiresInSeconds: PREVIEW_LINK_SECONDS,
  });
  return {
    url,
    name: file.name,
    size: file.size,
    kind,
    contentType,
    disposition,
    expiresAt: new Date(now.getTime() + PREVIEW_LINK_SECONDS * 1000).toISOString(),
  } as const;
});
