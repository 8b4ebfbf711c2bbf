import type { RouteDefinition } from './define-route';
import { allAccountRoutes } from './account';
import { allOauthRoutes } from './oauth';
import { allRecaptchaRoutes } from './recaptcha';
import { allSsoRoutes } from './sso';
import { allPlatformRoutes } from './platform';
import { allRankingRoutes } from './ranking';
import { allStoryRoutes } from './stories';
import { allNotificationRoutes } from './notifications';
import { allTransferRoutes } from './transfers';
import { allFileRequestRoutes } from './file-requests';
import { allSubscriptionRoutes } from './subscriptions';
import { allMerchantRoutes } from './merchant';
import { allStoreRoutes } from './store';
import { allAnalyticsRoutes } from './analytics';
import { allBillingRoutes } from './billing';
import { allWebPageRoutes } from './web-pages';
import { allFeedRoutes } from './feeds';

export * from './define-route';

/**
 * Every endpoint of the product. infra/cdk makes one Lambda and one HTTP API route per entry,
 * infra/local mounts the same entries, and web/ types its calls from them.
 *
 * Each group module exports one route per name and a handler imports its group as a namespace
 * (`import * as accountRoutes from ...`), so the bundler keeps only the route the handler
 * serves: the other routes' schemas are not built at its cold start (see
 * infra/build/pure-schema-modules.ts).
 */
export const routes = {
  ...allPlatformRoutes,
  ...allRankingRoutes,
  ...allAccountRoutes,
  ...allOauthRoutes,
  ...allSsoRoutes,
  ...allRecaptchaRoutes,
  ...allStoryRoutes,
  ...allNotificationRoutes,
  ...allTransferRoutes,
  ...allFileRequestRoutes,
  ...allSubscriptionRoutes,
  // The storefront (functions/penpay/) fills two stacks, the merchant's side first: see merchant.ts.
  ...allMerchantRoutes,
  ...allStoreRoutes,
  ...allAnalyticsRoutes,
  ...allBillingRoutes,
  ...allWebPageRoutes,
  // Served by the page renderer's app (functions/web-pages), after its own routes.
  ...allFeedRoutes,
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeEntries = Object.entries(routes) as [RouteName, RouteDefinition][];
