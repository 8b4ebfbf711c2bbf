/** Built on first need only: a count that is not a whole number is rare. */
let fallback: Intl.NumberFormat | undefined;

/**
 * A count as `Intl.NumberFormat('en-US')` writes it ("12,345"), for the server's pages, feeds and
 * mails. Whole numbers are grouped here: the first `Intl.NumberFormat` a process builds loads
 * ICU's locale data, 12 to 17 ms here, which a Lambda built it at import paid on every cold start.
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count) || Object.is(count, -0)) {
    fallback ??= new Intl.NumberFormat('en-US');
    return fallback.format(count);
  }
  const digits = String(Math.abs(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return count < 0 ? `-${digits}` : digits;
}
