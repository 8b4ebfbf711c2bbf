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

/** Why a transfer file is refused, or null when it may be sent. */
export function refusedTransferFile(file: { name: string; type: string }): string | null {
  if (REFUSED_TRANSFER_TYPES.has(normaliseContentType(file.type)) || REFUSED_TRANSFER_EXTENSIONS.has(extensionOf(file.name)))
    return `${file.name}: programs and installers cannot be sent.`;
  return null;
}

/**
 * A file name as stored and offered back on download: no folders, no control characters, at
 * most 255 characters (keeping the extension). Null when nothing of it is left.
 */
export function cleanFileName(name: string): string | null {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!base || base === '.' || base === '..') return null;
  if (base.length <= MAX_FILE_NAME_LENGTH) return base;
  const extension = extensionOf(base);
  const keep = extension && extension.length < 20 ? `.${extension}` : '';
  return base.slice(0, MAX_FILE_NAME_LENGTH - keep.length) + keep;
}
