import { sharedStorySchema, shareStoryBodySchema, urlCheckQuerySchema, urlCheckResultSchema } from '../schemas/stories';
import { defineRoute } from './define-route';

/** The answer depends only on the url and the deployment's own hosts. */
const URL_CHECK_CACHE_SECONDS = 300;

export const checkStoryUrl = defineRoute({
  method: 'GET',
  path: '/api/i/stories/url/check',
  access: 'public',
  handler: 'stories/check-story-url',
  summary:
    'Checks a url against the sharing rules without fetching it: 200 with the normalised url, or 400 INVALID_URL with the alert to show.',
  query: urlCheckQuerySchema,
  response: urlCheckResultSchema,
  cacheSeconds: URL_CHECK_CACHE_SECONDS,
});

export const shareStoryByUrl = defineRoute({
  method: 'POST',
  path: '/api/i/stories/story/by/url',
  access: 'user',
  handler: 'stories/share-story-by-url',
  summary:
    'Shares a story: the url is checked like url/check (same 400), then the page is fetched and read. 201 with the new story; 200 with the existing one (duplicate: true) when the same page was shared in the last 30 days. A page that cannot be read still makes a story from the url.',
  body: shareStoryBodySchema,
  response: sharedStorySchema,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allStoryRoutes = {
  checkStoryUrl,
  shareStoryByUrl,
};
