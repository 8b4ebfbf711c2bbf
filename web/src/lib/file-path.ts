/** A final path segment ending in a 1-5 character extension: /some/file.png, /a.b/c.txt. */
const FILE_EXTENSION = /\.[a-z0-9]{1,5}$/i;

/**
 * True when a pathname asks for a file rather than a page: its last segment has a file extension.
 * Profile segments (/@jane.doe) are pages even when the username contains a dot.
 */
export function isFilePath(pathname: string): boolean {
  const last = pathname.split('/').pop() ?? '';
  if (!last || last.startsWith('@')) return false;
  return FILE_EXTENSION.test(last);
}

export function filePathMessage(pathname: string): string {
  return `File paths not supported: ${pathname}`;
}
