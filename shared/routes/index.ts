import type { RouteDefinition } from './define-route';
import { accountRoutes } from './account';
import { oauthRoutes } from './oauth';
import { recaptchaRoutes } from './recaptcha';
import { ssoRoutes } from './sso';
import { platformRoutes } from './platform';
import { rankingRoutes } from './ranking';

export * from './define-route';

/**
 * Every endpoint of the product. infra/cdk makes one Lambda and one HTTP API route per entry,
 * infra/local mounts the same entries, and web/ types its calls from them.
 */
export const routes = {
  ...platformRoutes,
  ...rankingRoutes,
  ...accountRoutes,
  ...oauthRoutes,
  ...ssoRoutes,
  ...recaptchaRoutes,
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeEntries = Object.entries(routes) as [RouteName, RouteDefinition][];
