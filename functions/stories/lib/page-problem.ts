import { PAGE_PROBLEMS, type PageProblem } from '../../../shared/stories/page-problems';
import { ResponseTooLarge, type SafeFetchError, TimedOut, UnexpectedContentType } from '../../lib/http/safe-fetch';

/**
 * Why a shared page could not be read, as a story stores and shows it to anyone. Never the
 * fetch's own message: that names our resolver's answers ("resolves to a non-public address",
 * "getaddrinfo ENOTFOUND …"), which the log keeps instead.
 */
export { PAGE_PROBLEMS, type PageProblem };

const KNOWN: ReadonlySet<string> = new Set(Object.values(PAGE_PROBLEMS));

export function pageProblemFor(error: SafeFetchError): PageProblem {
  if (error instanceof TimedOut) return PAGE_PROBLEMS.timedOut;
  if (error instanceof UnexpectedContentType) return PAGE_PROBLEMS.notHtml;
  if (error instanceof ResponseTooLarge) return PAGE_PROBLEMS.tooLarge;
  return PAGE_PROBLEMS.unreachable;
}

/** A stored problem as shown: stories shared before the reasons were public ones stored the raw error. */
export function shownPageProblem(stored: string | undefined): PageProblem | null {
  if (stored === undefined) return null;
  return KNOWN.has(stored) ? (stored as PageProblem) : PAGE_PROBLEMS.unreachable;
}
