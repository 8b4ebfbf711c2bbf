/**
 * What may be uploaded, checked by the web app before a byte is sent and by the server again.
 * Transfer files may be of any type but programs and installers, which mail providers refuse
 * too (a package is opened by people who trust its sender, not its content). Images for
 * avatars and products are sniffed from their bytes; SVG is refused because it can carry script.
 */
export const REFUSED_TRANSFER_TYPES: ReadonlySet<string> = new Set([
  'application/x-msdownload',
  'application/x-ms-installer',
  'application/x-msi',
  'application/x-dosexec',
  'application/x-executable',
  'application/vnd.microsoft.portable-executable',
  'application/x-sh',
  'application/x-bat',
]);

export const REFUSED_TRANSFER_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe',
  'msi',
  'bat',
  'cmd',
  'com',
  'scr',
  'ps1',
  'vbs',
  'jar',
]);

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
/** Images for avatars and products: bytes, after decoding. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
export const MAX_FILE_NAME_LENGTH = 255;

/** The type a browser reports, lower-cased and without parameters; an empty one is binary. */
export function normaliseContentType(type: string | undefined): string {
  const bare = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(bare) ? bare : DEFAULT_CONTENT_TYPE;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/**
 * Why a transfer file is refused, or null when it may be sent. The type is read from the name as
 * it will be stored ({@link cleanFileName}): "setup.exe." or "setup.exe\u200b" is a program too,
 * as Windows drops the trailing dot and nobody sees the invisible character.
 */
export function refusedTransferFile(file: { name: string; type: string }): string | null {
  const name = cleanFileName(file.name) ?? file.name;
  if (REFUSED_TRANSFER_TYPES.has(normaliseContentType(file.type)) || REFUSED_TRANSFER_EXTENSIONS.has(extensionOf(name)))
    return `${name}: programs and installers cannot be sent.`;
  return null;
}

/**
 * What a file name may not hold: control characters (C0, C1 such as U+0085, DEL), format
 * characters (U+202E right-to-left override and the other bidi controls, zero-width spaces, the
 * byte order mark), lone surrogates, and the line and paragraph separators U+2028 and U+2029.
 * They make a name read otherwise than it is ("photo\u202egnp.html" shows as "photolmth.png").
 */
const UNSEEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
/** Windows drops trailing dots and spaces when it saves a file: "ok.exe. " becomes "ok.exe". */
const TRAILING_DOTS_AND_SPACES = /[. ]+$/;

/** The message for a name of which nothing is left once cleaned. */
export const UNUSABLE_FILE_NAME =
  'This file name has no visible characters left once control characters, folders and trailing dots are removed: rename the file.';

/**
 * A file name as stored, checked and offered back on download: no folders, no control or format
 * characters, no trailing dots or spaces, at most 255 characters (keeping the extension). Null
 * when nothing of it is left. Every place that takes a name goes through here: the request
 * schemas (which refuse a name that comes back null), the server that stores it, the type check
 * and the zip of a package.
 */
export function cleanFileName(name: string): string | null {
  const base = trimEnd((name.split(/[\\/]/).pop() ?? '').replace(UNSEEN_CHARACTERS, '').trim());
  if (!base) return null;
  if (base.length <= MAX_FILE_NAME_LENGTH) return base;
  const extension = extensionOf(base);
  const keep = extension && extension.length < 20 ? `.${extension}` : '';
  return trimEnd(base.slice(0, MAX_FILE_NAME_LENGTH - keep.length)) + keep;
}

/** Without trailing dots and spaces, nor half of a character cut by a slice. */
const trimEnd = (name: string) => name.replace(/[\uD800-\uDBFF]$/, '').replace(TRAILING_DOTS_AND_SPACES, '');
