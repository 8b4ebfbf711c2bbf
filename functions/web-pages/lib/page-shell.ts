import { getConfig } from '../../lib/config';
import { logger } from '../../lib/logger';

/**
 * The web app's built index.html, split where a page's own parts go: its head tags before
 * `</head>`, its content inside `<div id="root">`, and its data after that element.
 */
export interface Shell {
  /** Everything up to `</head>`, without the shell's own title and robots tag (a page brings its own). */
  head: string;
  /** From `</head>` up to the inside of `<div id="root">`. */
  body: string;
  /** From the root element's end to the end of the document. */
  tail: string;
}

const ROOT = '<div id="root"></div>';
/** How long a fetched shell is used before it is fetched again: a deployment's new asset names show within this. */
const SHELL_TTL_MS = 60_000;
const SHELL_FETCH_TIMEOUT_MS = 3_000;

/**
 * Only if the shell cannot be fetched (the web app was never built or deployed): the page's
 * head and content still reach crawlers, without the app.
 */
const FALLBACK_SHELL = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /></head><body>${ROOT}</body></html>`;

/** Splits a built index.html; null when it has no empty root element to fill (not our shell). */
export function splitShell(html: string): Shell | null {
  const headEnd = html.indexOf('</head>');
  const root = html.indexOf(ROOT);
  if (headEnd < 0 || root < headEnd) return null;
  // The shell's own title and robots tag stand for "any page of the app": a rendered page says its own.
  const head = html
    .slice(0, headEnd)
    .replace(/<title[^>]*>[^<]*<\/title>\s*/i, '')
    .replace(/<meta name="robots"[^>]*>\s*/i, '');
  return {
    head,
    body: html.slice(headEnd, root + ROOT.length - '</div>'.length),
    tail: html.slice(root + ROOT.length - '</div>'.length),
  };
}

export const fallbackShell = splitShell(FALLBACK_SHELL) as Shell;

let current: { shell: Shell; html: string; fetchedAt: number } | undefined;
let refreshing: Promise<void> | undefined;

/**
 * The shell is the one the site serves, fetched from the site itself (the bucket behind
 * CloudFront in AWS, the local server's web build locally) rather than bundled with the
 * function: a deployment of the web app alone changes the asset names in it, and a bundled
 * copy would then point every page at scripts the bucket no longer holds.
 */
async function refresh(): Promise<void> {
  const { webOrigin } = getConfig();
  try {
    const answer = await fetch(`${webOrigin}/index.html`, { signal: AbortSignal.timeout(SHELL_FETCH_TIMEOUT_MS) });
    const html = answer.ok ? await answer.text() : '';
    const shell = splitShell(html);
    if (!shell) throw new Error(`${webOrigin}/index.html answered ${answer.status} without the app's root element`);
    current = { shell, html, fetchedAt: Date.now() };
  } catch (error) {
    logger.warn('Could not fetch the web app shell; pages are rendered without the app until it can be', {
      error: error as Error,
    });
    // Tried again at the next expiry, not on every request.
    current = { shell: current?.shell ?? fallbackShell, html: current?.html ?? FALLBACK_SHELL, fetchedAt: Date.now() };
  }
}

/**
 * The current shell. Fetched once per cold start; later, a shell past its time is answered
 * once more while a fresh one is fetched, so no request waits on the refresh.
 */
export async function getShell(): Promise<{ shell: Shell; html: string }> {
  if (!current) {
    refreshing ??= refresh().finally(() => (refreshing = undefined));
    await refreshing;
  } else if (Date.now() - current.fetchedAt > SHELL_TTL_MS && !refreshing) {
    refreshing = refresh().finally(() => (refreshing = undefined));
  }
  return current ?? { shell: fallbackShell, html: FALLBACK_SHELL };
}

/** For tests: the next page fetches the shell again. */
export function forgetShell(): void {
  current = undefined;
}
