import { cleanFileName } from '@shared/transfers/file-rules';

/**
 * Names for the entries of a zip: two files of a package may share a name, and a zip that holds
 * both under one name loses one when unpacked, so the later ones become "name (2).ext". Names
 * are cleaned as the server stores them (cleanFileName), for files stored before it did so.
 */
export function uniqueZipNames<T extends { name: string }>(files: readonly T[]): (T & { name: string })[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const base = cleanFileName(file.name.replace(/[\\/]/g, '_')) ?? 'file';
    let name = base;
    const dot = base.lastIndexOf('.');
    const stem = dot > 0 ? base.slice(0, dot) : base;
    const extension = dot > 0 ? base.slice(dot) : '';
    for (let copy = 2; taken.has(name.toLowerCase()); copy += 1) name = `${stem} (${copy})${extension}`;
    taken.add(name.toLowerCase());
    return { ...file, name };
  });
}

/** A Content-Disposition value that names the download in any browser: an ASCII fallback and the UTF-8 name. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
