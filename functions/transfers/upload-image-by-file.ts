import * as transferRoutes from '../../shared/routes/transfers';
import { MAX_IMAGE_BYTES } from '../../shared/transfers/file-rules';
import { getDb } from '../lib/db/service';
import { imageFolder, type StoredFileItem } from '../lib/db/entities/stored-file';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { toFileView } from './lib/transfer-views';
import { checkedImageType } from './lib/images';
import { newEntityId, objectKeyOf } from '../lib/files/stored-files';
import { uploadTargetOf } from './lib/stored-files';
import { cleanFileName } from '../../shared/transfers/file-rules';

const PENDING_LIFETIME_SECONDS = 2 * 24 * 3600;

export const handler = createHandler(transferRoutes.uploadImageByFile, async ({ body, caller }) => {
  const db = getDb();
  const now = new Date();
  const contentType = checkedImageType(body.type);
  if (body.size > MAX_IMAGE_BYTES) throw new BadRequest('The image is larger than 10 MB.');
  if (body.size === 0) throw new BadRequest('This image is empty.');
  const fileId = newEntityId();
  const item: StoredFileItem = {
    fileId,
    purpose: 'image',
    ownerId: caller.userId,
    folder: imageFolder(caller.userId),
    name: cleanFileName(body.name) ?? 'image',
    size: body.size,
    contentType,
    status: 'pending',
    uploadMethod: 'post',
    objectKey: objectKeyOf({ purpose: 'image', fileId }),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + PENDING_LIFETIME_SECONDS,
  };
  await db.entities.storedFile.create(item).go();
  return reply({ file: toFileView(item), upload: await uploadTargetOf(item, now, null) }, { status: 201 });
});
