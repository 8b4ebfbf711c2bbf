/**
 * Range GETs as S3 answers them. s3rver reads a Range header loosely: "bytes=0-0" answers the
 * whole object, a suffix ("bytes=-500") is read from byte 0, and an empty object answers 206. The
 * gateway reads the header itself, asks s3rver for the bytes from the range's start on, and sends
 * exactly the range: 206 with Content-Range and Content-Length, or 416 InvalidRange for a range
 * that holds no byte of the object. Like S3, it reads a single range only: a header it cannot
 * read (malformed, several ranges, the end before the start) is ignored and the whole object
 * answered with 200.
 */

export type ByteRange = { kind: 'from'; start: number; end: number | null } | { kind: 'suffix'; length: number };

export function parseRange(header: string | undefined): ByteRange | null {
  const match = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/.exec(header ?? '');
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') return { kind: 'suffix', length: Number(last) };
  const start = Number(first);
  const end = last === '' ? null : Number(last);
  if (!Number.isSafeInteger(start) || (end !== null && (!Number.isSafeInteger(end) || end < start))) return null;
  return { kind: 'from', start, end };
}

/** The first and last byte a range names in an object of `size` bytes; null when it names none. */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } | null {
  if (size === 0) return null;
  if (range.kind === 'suffix') {
    if (range.length === 0) return null;
    return { start: Math.max(0, size - range.length), end: size - 1 };
  }
  if (range.start >= size) return null;
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}
