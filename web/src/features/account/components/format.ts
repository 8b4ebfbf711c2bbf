import Bowser from 'bowser';
/** '12 March 2024, 14:05' in the reader's locale and time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** 'March 2024'. */
export function formatMonthYear(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' }).format(date);
}

/** Bowser's names, shortened to what people call them. */
const SHORT_BROWSER_NAMES: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
  'Android Browser': 'Android browser',
};

/**
 * 'Chrome on Linux', 'Safari on iPhone', 'Firefox on Windows' from a user agent (parsed by
 * bowser): what a person recognises as their device, never the raw string.
 */
export function describeUserAgent(userAgent: string): string {
  if (!userAgent.trim()) return 'Unknown browser';
  const { browser, os, platform } = Bowser.parse(userAgent);
  const browserName = browser.name ? (SHORT_BROWSER_NAMES[browser.name] ?? browser.name) : null;
  // An iPhone or iPad says more than "iOS".
  const system = platform.model === 'iPhone' || platform.model === 'iPad' ? platform.model : (os.name ?? null);
  if (browserName && system) return `${browserName} on ${system}`;
  return browserName ?? (system ? `A browser on ${system}` : 'Unknown browser');
}
