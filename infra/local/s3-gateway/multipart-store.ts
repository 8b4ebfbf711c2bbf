import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { invalidArgument, noSuchUpload, S3_NAMESPACE, S3Error, XML_DECLARATION, xmlEscape } from './errors';

/**
 * The multipart uploads s3rver holds, read and changed where it keeps them, for what it lacks:
 * ListParts, AbortMultipartUpload, and CompleteMultipartUpload's checks and ETag.
 *
 * s3rver 3.7.1's filesystem store keeps each upload in `<directory>/<bucket>/._S3rver_uploads/<uploadId>/`:
 * a `key` file (the object key), a `metadata` file (the CreateMultipartUpload headers, as JSON),
 * and for each part a file named by its number holding its bytes, with `<number>.md5` (its MD5 in
 * hex) written once the part is complete. Its upload ids are 32 lower-case hex characters. An
 * object's MD5, which it answers as the ETag, is the file `<key>._S3rver_object.md5` beside the object.
 */

const UPLOADS_DIRECTORY = '._S3rver_uploads';
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const MAX_PARTS_PER_PAGE = 1_000;
export const MAX_PART_NUMBER = 10_000;
/** S3's least size for every part but the last. */
export const MIN_PART_SIZE = 5 * 1_048_576;

export interface StoredPart {
  partNumber: number;
  size: number;
  /** The part's MD5 in hex, which S3 answers (quoted) as its ETag. */
  md5: string;
  lastModified: Date;
}

export interface PartsPage {
  parts: StoredPart[];
  isTruncated: boolean;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export class MultipartStore {
  constructor(private readonly directory: string) {}

  /** The upload's directory once it is known to be the key's; NoSuchUpload otherwise, as S3 answers. */
  private async uploadDirectory(bucket: string, key: string, uploadId: string): Promise<string> {
    // Checked before it becomes a path: an upload id is never a way out of the data directory.
    if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload(uploadId);
    const directory = join(this.directory, bucket, UPLOADS_DIRECTORY, uploadId);
    try {
      if ((await readFile(join(directory, 'key'), 'utf8')) === key) return directory;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    throw noSuchUpload(uploadId);
  }

  /** Throws NoSuchUpload unless the upload exists for this key: checked before a part is stored. */
  async requireUpload(bucket: string, key: string, uploadId: string): Promise<void> {
    await this.uploadDirectory(bucket, key, uploadId);
  }

  /** Every complete part, in part order. */
  async parts(bucket: string, key: string, uploadId: string): Promise<StoredPart[]> {
    const directory = await this.uploadDirectory(bucket, key, uploadId);
    const names = await readdir(directory);
    const numbers = names
      .filter((name) => /^\d+$/.test(name) && names.includes(`${name}.md5`))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (partNumber): Promise<StoredPart | undefined> => {
        try {
          const [md5, info] = await Promise.all([
            readFile(join(directory, `${partNumber}.md5`), 'utf8'),
            stat(join(directory, String(partNumber))),
          ]);
          return { partNumber, size: info.size, md5: md5.trim(), lastModified: info.mtime };
        } catch (error) {
          // Completed or aborted meanwhile.
          if (isMissing(error)) return undefined;
          throw error;
        }
      }),
    );
    return parts.filter((part): part is StoredPart => part !== undefined);
  }

  /** One page of ListParts: the parts after `marker`, at most `maxParts` of them. */
  async listParts(bucket: string, key: string, uploadId: string, page: { marker: number; maxParts: number }): Promise<PartsPage> {
    const after = (await this.parts(bucket, key, uploadId)).filter((part) => part.partNumber > page.marker);
    return { parts: after.slice(0, page.maxParts), isTruncated: after.length > page.maxParts };
  }

  async abort(bucket: string, key: string, uploadId: string): Promise<void> {
    await rm(await this.uploadDirectory(bucket, key, uploadId), { recursive: true, force: true });
  }

  /**
   * Checks a CompleteMultipartUpload's part list as S3 does (ascending part numbers, each part
   * uploaded with the ETag given, every part but the last at least 5 MiB) and returns the ETag
   * S3 gives the object: the MD5 of the parts' MD5s, then a dash and the number of parts.
   */
  async completionEtag(
    bucket: string,
    key: string,
    uploadId: string,
    requested: readonly { partNumber: number; etag: string }[],
  ): Promise<string> {
    const stored = new Map((await this.parts(bucket, key, uploadId)).map((part) => [part.partNumber, part]));
    const chosen: StoredPart[] = [];
    for (const [index, { partNumber, etag }] of requested.entries()) {
      if (index > 0 && partNumber <= (requested[index - 1]?.partNumber ?? 0)) {
        throw new S3Error(
          'InvalidPartOrder',
          'The list of parts was not in ascending order. Parts must be ordered by part number.',
          400,
          { UploadId: uploadId },
        );
      }
      const part = stored.get(partNumber);
      // S3 compares ETags without their quotes.
      if (!part || part.md5 !== etag.replace(/"/g, '').trim()) {
        throw new S3Error(
          'InvalidPart',
          "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
          400,
          { UploadId: uploadId, PartNumber: partNumber, ETag: etag },
        );
      }
      chosen.push(part);
    }
    const tooSmall = chosen.slice(0, -1).find((part) => part.size < MIN_PART_SIZE);
    if (tooSmall) {
      throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', 400, {
        ProposedSize: tooSmall.size,
        MinSizeAllowed: MIN_PART_SIZE,
        PartNumber: tooSmall.partNumber,
        ETag: `"${tooSmall.md5}"`,
      });
    }
    const md5OfMd5s = createHash('md5');
    for (const part of chosen) md5OfMd5s.update(Buffer.from(part.md5, 'hex'));
    return `${md5OfMd5s.digest('hex')}-${chosen.length}`;
  }

  /** Makes s3rver answer this ETag (unquoted here) for the object from now on. */
  async setObjectEtag(bucket: string, key: string, etag: string): Promise<void> {
    const segments = key.split('/');
    const name = segments.pop() ?? '';
    await writeFile(join(this.directory, bucket, ...segments, `${name}._S3rver_object.md5`), etag);
  }
}

/** ListParts' paging parameters, refused as S3 refuses them when they are not whole numbers. */
export function partsPageOf(query: URLSearchParams): { marker: number; maxParts: number } {
  const number = (name: string, fallback: number) => {
    const value = query.get(name);
    if (value === null) return fallback;
    if (!/^\d{1,9}$/.test(value)) {
      throw invalidArgument(`Provided ${name} not an integer or within integer range`, name, value);
    }
    return Number(value);
  };
  return {
    marker: number('part-number-marker', 0),
    maxParts: Math.min(number('max-parts', MAX_PARTS_PER_PAGE), MAX_PARTS_PER_PAGE),
  };
}

/** A part number S3 accepts, 1 to 10,000, or InvalidArgument. */
export function partNumberOf(value: string | null): number {
  if (value === null || !/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PART_NUMBER) {
    throw invalidArgument('Part number must be an integer between 1 and 10000, inclusive', 'partNumber', value ?? '');
  }
  return Number(value);
}

const OWNER = '<ID>local</ID><DisplayName>local</DisplayName>';

export function listPartsXml(
  request: { bucket: string; key: string; uploadId: string; marker: number; maxParts: number },
  page: PartsPage,
): string {
  const last = page.parts.at(-1);
  const parts = page.parts
    .map(
      (part) =>
        `<Part><PartNumber>${part.partNumber}</PartNumber><LastModified>${part.lastModified.toISOString()}</LastModified>` +
        `<ETag>${xmlEscape(`"${part.md5}"`)}</ETag><Size>${part.size}</Size></Part>`,
    )
    .join('');
  return (
    `${XML_DECLARATION}<ListPartsResult xmlns="${S3_NAMESPACE}">` +
    `<Bucket>${xmlEscape(request.bucket)}</Bucket><Key>${xmlEscape(request.key)}</Key><UploadId>${xmlEscape(request.uploadId)}</UploadId>` +
    `<Initiator>${OWNER}</Initiator><Owner>${OWNER}</Owner><StorageClass>STANDARD</StorageClass>` +
    `<PartNumberMarker>${request.marker}</PartNumberMarker>` +
    (last ? `<NextPartNumberMarker>${last.partNumber}</NextPartNumberMarker>` : '') +
    `<MaxParts>${request.maxParts}</MaxParts><IsTruncated>${page.isTruncated}</IsTruncated>${parts}</ListPartsResult>`
  );
}

export function completeMultipartUploadXml(result: { location: string; bucket: string; key: string; etag: string }): string {
  return (
    `${XML_DECLARATION}<CompleteMultipartUploadResult xmlns="${S3_NAMESPACE}">` +
    `<Location>${xmlEscape(result.location)}</Location><Bucket>${xmlEscape(result.bucket)}</Bucket>` +
    `<Key>${xmlEscape(result.key)}</Key><ETag>${xmlEscape(`"${result.etag}"`)}</ETag></CompleteMultipartUploadResult>`
  );
}
