const LONG_DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };

/** An instant as a date in the reader's time zone: "3 March 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-GB', LONG_DATE);
}

/**
 * A billing day (YYYY-MM-DD, the gateway's calendar day) as it is written, whatever the reader's
 * time zone: read as an instant, it would show the day before west of UTC.
 */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString('en-GB', { ...LONG_DATE, timeZone: 'UTC' });
}
