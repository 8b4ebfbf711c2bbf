/**
 * Why a shared page could not be read, as a story stores it and the API answers it (a story's
 * `fetchProblem`): public words, never the fetch's own message. The server picks one
 * (functions/stories/lib/page-problem.ts); the share form tells the sharer what it means.
 */
export const PAGE_PROBLEMS = {
  unreachable: 'The page could not be reached',
  timedOut: 'The page did not answer in time',
  notHtml: 'The page is not a web page',
  tooLarge: 'The page is too large to read',
} as const;

export type PageProblem = (typeof PAGE_PROBLEMS)[keyof typeof PAGE_PROBLEMS];
