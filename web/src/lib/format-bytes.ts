const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/** Sizes in decimal units, as plans are stated (2 GB = 2,000,000,000 bytes): "840 bytes", "3.4 MB", "1.25 GB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) return `${Math.max(0, Math.round(bytes || 0))} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit: (typeof UNITS)[number] = 'kB';
  for (const next of UNITS) {
    value /= 1000;
    unit = next;
    if (value < 1000) break;
  }
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${Number(value.toFixed(digits))} ${unit}`;
}
