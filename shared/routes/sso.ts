import type { RouteDefinition } from './define-route';

/** Single sign-on across the sibling apps, realtime-channel auth, email verification and emailed actions. */
export const ssoRoutes = {} satisfies Record<string, RouteDefinition>;
