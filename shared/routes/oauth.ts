import type { RouteDefinition } from './define-route';

/** Google (OpenID Connect) and Twitter-style OAuth 2.0 logins. */
export const oauthRoutes = {} satisfies Record<string, RouteDefinition>;
