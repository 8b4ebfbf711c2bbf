/**
 * How a file of a given size travels to S3. Small files go in one presigned POST (its policy
 * pins the size and type); larger ones as a multipart upload, whose parts are retried and
 * resumed one by one. S3 allows 10,000 parts of 5 MiB to 5 GiB; we use 8 to 64 MiB parts, so a
 * part is worth retrying alone and a browser holds little of the file at once.
 */
export const MIB = 1024 * 1024;
export const MIN_PART_BYTES = 8 * MIB;
export const MAX_PART_BYTES = 64 * MIB;
export const MAX_PARTS = 10_000;
/** Files up to this size are one presigned POST; larger ones are multipart. */
export const SINGLE_UPLOAD_MAX_BYTES = 16 * MIB;
/** The largest single file: 10,000 parts of 64 MiB would allow more, S3 objects stop at 5 TiB, our plans far below. */
export const MAX_FILE_BYTES = MAX_PARTS * MAX_PART_BYTES;

export type UploadMethod = 'post' | 'multipart';

export function uploadMethodFor(size: number): UploadMethod {
  return size <= SINGLE_UPLOAD_MAX_BYTES ? 'post' : 'multipart';
}

/** Part size for a multipart upload: the smallest whole MiB from 8 MiB up that fits the file in 10,000 parts. */
export function partSizeFor(size: number): number {
  const needed = Math.ceil(size / MAX_PARTS / MIB) * MIB;
  return Math.min(MAX_PART_BYTES, Math.max(MIN_PART_BYTES, needed));
}

export function partCountFor(size: number, partSize: number = partSizeFor(size)): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/** Byte range [start, end) of part `partNumber` (1-based). */
export function partRange(size: number, partSize: number, partNumber: number): { start: number; end: number } {
  const start = (partNumber - 1) * partSize;
  return { start, end: Math.min(size, start + partSize) };
}
