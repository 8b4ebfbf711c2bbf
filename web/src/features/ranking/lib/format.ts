const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const exact = new Intl.NumberFormat('en-US');
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

const DAY_MS = 86_400_000;

/** 1234567 -> "1.2M", 45321 -> "45.3K", 999 -> "999". */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** 1234567 -> "1,234,567". */
export function formatExact(value: number): string {
  return exact.format(value);
}

/** A signed compact count: 1234 -> "+1.2K", -80 -> "-80", 0 -> "0". */
export function formatSignedCompact(value: number): string {
  return value > 0 ? `+${formatCompact(value)}` : formatCompact(value);
}

/** A signed percentage with fewer decimals as it grows: 0.14 -> "+0.14%", 3.25 -> "+3.3%", 290.35 -> "+290%". */
export function formatPercent(value: number): string {
  const abs = Math.abs(value);
  const digits = abs === 0 ? 0 : abs < 1 ? 2 : abs < 10 ? 1 : 0;
  const text = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
  return value > 0 ? `+${text}%` : `${text}%`;
}

/** The viewer's own time zone, read when asked (a test may set it), e.g. "Europe/Lisbon". */
export function viewerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const dayParts = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in a time zone, as a count of days since 1970-01-01. */
function dayNumber(time: number, timeZone: string): number {
  let format = dayParts.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
    dayParts.set(timeZone, format);
  }
  const part = (type: string) => Number(format.formatToParts(time).find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day')) / DAY_MS;
}

/**
 * How many calendar days, in the viewer's time zone, lie between an instant and now: 0 on the
 * same date, 1 for the day before, whatever the hours. The same days as formatDate shows.
 */
export function calendarDaysAgo(iso: string, now: number = Date.now(), timeZone: string = viewerTimeZone()): number {
  return dayNumber(now, timeZone) - dayNumber(Date.parse(iso), timeZone);
}

/** "today", "yesterday", "3 days ago", "2 months ago", "4 years ago": calendar days in the viewer's time zone. */
export function formatRelative(iso: string, now: number = Date.now(), timeZone: string = viewerTimeZone()): string {
  const days = calendarDaysAgo(iso, now, timeZone);
  if (days < 1) return 'today';
  if (days < 30) return relative.format(-days, 'day');
  if (days < 365) return relative.format(-Math.floor(days / 30.44), 'month');
  return relative.format(-Math.floor(days / 365.25), 'year');
}

/** A short relative time for "updated ..." lines: "just now", "5 minutes ago", "2 hours ago". */
export function formatUpdated(iso: string, now: number = Date.now(), timeZone: string = viewerTimeZone()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  return formatRelative(iso, now, timeZone);
}

/** "5 April 2025": the exact date behind a relative one, in the viewer's time zone as formatRelative counts. */
export function formatDate(iso: string, timeZone: string = viewerTimeZone()): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone });
}

/** Up to two initials, skipping a leading article: "The Business Daily" -> "BD". */
export function initials(name: string): string {
  const words = name
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const meaningful = words.length > 1 && /^(the|a|an)$/i.test(words[0] ?? '') ? words.slice(1) : words;
  const letters = meaningful.slice(0, 2).map((word) => word[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

/** "1 publication", "2 publications". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${formatExact(count)} ${count === 1 ? word : many}`;
}
