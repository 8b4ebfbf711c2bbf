import { cleanFileName, IMAGE_TYPES, MAX_IMAGE_BYTES } from '../../../shared/transfers/file-rules';
import type { Db } from '../../lib/db/service';
import { imageFolder, storedKeyOf, type StoredFileItem } from '../../lib/db/entities/stored-file';
import { BadRequest } from '../../lib/errors';
import { presignGet, putObject } from '../../lib/files/file-bucket';
import type { UserCaller } from '../../lib/http/caller';
import { toFileView } from './transfer-views';
import { checkedImage } from './image-intake';
import { newEntityId, objectKeyOf } from '../../lib/files/stored-files';

/** How long the answer's link to the image works; the image itself stays. */
const IMAGE_LINK_SECONDS = 3_600;

const EXTENSIONS: Record<(typeof IMAGE_TYPES)[number], string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

export const imageLink = (file: Pick<StoredFileItem, 'objectKey' | 'finalKey' | 'name' | 'contentType'>) =>
  presignGet({
    key: storedKeyOf(file),
    fileName: file.name,
    contentType: file.contentType,
    disposition: 'inline',
    expiresInSeconds: IMAGE_LINK_SECONDS,
  });

/** The declared type of an image upload, before a byte is sent: one of ours, never SVG. */
export function checkedImageType(type: string): (typeof IMAGE_TYPES)[number] {
  const declared = type.trim().toLowerCase();
  if (declared === 'image/svg+xml') throw new BadRequest('SVG images are not accepted: use PNG, JPEG, GIF, WebP or AVIF.');
  const known = IMAGE_TYPES.find((candidate) => candidate === declared);
  if (!known) throw new BadRequest('Only PNG, JPEG, GIF, WebP or AVIF images are accepted.');
  return known;
}

/**
 * Stores an image the server holds in full (sent as base64 or fetched by url): its type comes
 * from its bytes, never from its name, and it is ready at once.
 */
export async function storeImage(db: Db, caller: UserCaller, bytes: Uint8Array, name: string | undefined, now: Date) {
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new BadRequest('The image is larger than 10 MB.');
  const image = await checkedImage(bytes);
  const fileId = newEntityId();
  const base =
    (cleanFileName(name ?? '') ?? '')
      .replace(/\.[^.]*$/, '')
      .replace(/[^\p{L}\p{N} _-]+/gu, '')
      .trim()
      .slice(0, 100) || 'image';
  const item: StoredFileItem = {
    fileId,
    purpose: 'image',
    ownerId: caller.userId,
    folder: imageFolder(caller.userId),
    name: `${base}.${EXTENSIONS[image.type]}`,
    size: bytes.byteLength,
    contentType: image.type,
    status: 'ready',
    uploadMethod: 'server',
    objectKey: objectKeyOf({ purpose: 'image', fileId }),
    createdAt: now.toISOString(),
    readyAt: now.toISOString(),
  };
  await putObject({ key: item.objectKey, body: bytes, contentType: image.type });
  await db.entities.storedFile.create(item).go();
  return { file: toFileView(item), url: await imageLink(item) };
}
