import * as z from 'zod';
import { defineRoute } from './define-route';

export const platformRoutes = {
  health: defineRoute({
    method: 'GET',
    path: '/api/health',
    access: 'public',
    handler: 'platform/get-health',
    summary: 'Liveness and database reachability.',
    response: z.object({ status: z.literal('ok'), time: z.string() }),
  }),
};
