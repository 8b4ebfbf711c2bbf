import * as z from '../zod';
import { defineRoute } from './define-route';

export const health = defineRoute({
  method: 'GET',
  path: '/api/health',
  access: 'public',
  handler: 'platform/get-health',
  summary: 'Liveness and database reachability.',
  response: z.strictObject({ status: z.literal('ok'), time: z.string() }),
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allPlatformRoutes = {
  health,
};
