import { gunzipSync, gzipSync } from 'node:zlib';
import type { FileView } from '../../../shared/schemas/transfers';
import { storedKeyOf, type StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { Db } from '../../lib/db/service';
import { LruCache } from '../../lib/lru-cache';
import { toFileView } from './transfer-views';

/** A file as the package lists it, with the key its bytes are read from (never shown to a client). */
export interface ManifestFile extends FileView {
  objectKey: string;
}

export function encodeManifest(files: readonly StoredFileItem[]): string {
  const entries: ManifestFile[] = files.map((file) => ({ ...toFileView(file), objectKey: storedKeyOf(file) }));
  return gzipSync(JSON.stringify(entries), { level: 6 }).toString('base64');
}

export function decodeManifest(payload: string): ManifestFile[] {
  return JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8')) as ManifestFile[];
}

/**
 * Decoded manifests, by transfer: a sent transfer's files never change, so a warm function
 * decodes each package once. Whether the transfer still exists (and whether the caller may see
 * it) is read on every request all the same.
 */
const decoded = new LruCache<ManifestFile[]>(200);

/** A sent transfer's files; null for a transfer that has none (not sent, or deleted meanwhile). */
export async function readManifest(
  db: Db,
  transfer: Pick<TransferItem, 'transferId' | 'finalizedAt'>,
): Promise<ManifestFile[] | null> {
  const cacheKey = `${transfer.transferId}@${transfer.finalizedAt ?? ''}`;
  const cached = decoded.get(cacheKey);
  if (cached) return cached;
  const { data } = await db.entities.transferManifest.get({ transferId: transfer.transferId }).go();
  if (!data) return null;
  const files = decodeManifest(data.files);
  decoded.set(cacheKey, files);
  return files;
}
