/** The most addresses one import takes: a file longer than that is cut, and says so. */
export const MAX_IMPORT_ADDRESSES = 2_000;

const ADDRESS = /https?:\/\/[^\s,;"'<>]+/i;

export interface AddressList {
  /** Each address once, in the file's order. */
  urls: string[];
  /** Lines that held no web address (blank lines and # comments are not counted). */
  skippedLines: number;
  /** Addresses past MAX_IMPORT_ADDRESSES, left out. */
  leftOut: number;
}

/**
 * The addresses of an uploaded list: one per line, as a plain text file or the first column of a
 * spreadsheet's CSV (the first http(s) address on each line is taken). Blank lines and lines
 * starting with # are ignored, and an address given twice is imported once.
 */
export function parseAddressList(text: string): AddressList {
  const seen = new Set<string>();
  let skippedLines = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = ADDRESS.exec(line);
    if (match) seen.add(match[0]);
    else skippedLines += 1;
  }
  const all = [...seen];
  return { urls: all.slice(0, MAX_IMPORT_ADDRESSES), skippedLines, leftOut: Math.max(0, all.length - MAX_IMPORT_ADDRESSES) };
}

/** The report as CSV, for a spreadsheet: address, outcome, publication page, reason. */
export function reportCsv(rows: readonly { url: string; outcome: string; slug: string | null; reason: string | null }[], origin: string): string {
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = rows.map((row) =>
    [row.url, row.outcome, row.slug ? `${origin}/pub/${row.slug}` : '', row.reason ?? ''].map(cell).join(','),
  );
  return ['address,outcome,page,reason', ...lines].join('\n') + '\n';
}
