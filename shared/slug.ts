/** Our own slugs' length: room for a suffix ('-2') under the ingestion schema's 100. */
export const SLUG_MAX_LENGTH = 80;

/**
 * The one rule for our addresses and topic ids, for the demo seed and the collected
 * publications alike: lower-case words joined by dashes, '&' read as 'and', apostrophes
 * dropped ("Ann's Notes" -> 'anns-notes', not 'ann-s-notes'), accents dropped, cut to
 * `maxLength` on a word boundary where the cut leaves a dash. Null when no letter or digit is left.
 */
export function kebabCase(text: string, maxLength: number): string | null {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
  return words || null;
}
