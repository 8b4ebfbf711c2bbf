import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject, useParams } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { startAnalytics, trackPageViews, useAnalyticsIdentity } from '../lib/analytics';
import { setRoutePrefetcher } from '../lib/prefetch';
import { AppLayout } from './layout/app-layout';
import { RouteError } from './routes/route-error';

/**
 * A page loaded on demand: its route's Component is the export `name` of the module `load` brings.
 * One small function for every page keeps the route table, which is in every first load, short.
 */
function page<M extends Record<N, ComponentType>, N extends keyof M & string>(load: () => Promise<M>, name: N) {
  return async (): Promise<{ Component: ComponentType }> => ({ Component: (await load())[name] });
}

/**
 * Page routes of the ranking site, the account pages and the other apps' (transfers, the Pro
 * plan, the storefront's shops, carts and orders, the merchant area). Pages load on demand, so the first
 * visit downloads only the shell and the page it opens.
 */
export const pageRoutes: RouteObject[] = [
  {
    element: <Shell />,
    // Shown while the first page's code loads, and when a page's code cannot be loaded.
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'MostFollowedPage'),
          },
          {
            path: 'active',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'MostFollowedActivePage'),
          },
          {
            path: 'growing',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'FastestGrowingPage'),
          },
          {
            path: 'growing/active',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'FastestGrowingActivePage'),
          },
          {
            path: 'recent',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'RecentlyActivePage'),
          },
          {
            path: 'recent/active',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'RecentlyActiveActivePage'),
          },
          {
            path: 'topic/:tag',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'TopicPage'),
          },
          {
            path: 'topic/:tag/growing',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'TopicGrowingPage'),
          },
          {
            path: 'topic/:tag/recent',
            lazy: page(() => import('../features/ranking/routes/board-pages'), 'TopicRecentPage'),
          },
          {
            path: 'topics',
            lazy: page(() => import('../features/ranking/routes/topics-page'), 'TopicsPage'),
          },
          {
            path: 'topics/:page',
            lazy: page(() => import('../features/ranking/routes/topics-page'), 'TopicsPage'),
          },
          {
            path: 'archive',
            lazy: page(() => import('../features/ranking/routes/archive-page'), 'ArchiveIndexPage'),
          },
          {
            path: 'archive/:year/:month',
            lazy: page(() => import('../features/ranking/routes/archive-page'), 'ArchivePage'),
          },
          {
            path: 'following',
            lazy: page(() => import('../features/ranking/routes/following-page'), 'FollowingPage'),
          },
          {
            path: 'pub/:slug',
            lazy: page(() => import('../features/ranking/routes/publication-page'), 'PublicationPage'),
          },
          {
            path: 'search',
            lazy: page(() => import('../features/ranking/routes/search-page'), 'SearchPage'),
          },
          { path: 'about', lazy: page(() => import('./routes/about-page'), 'AboutPage') },
          {
            path: 'login/confirm',
            lazy: page(() => import('../features/account/routes/login-confirm-page'), 'LoginConfirmPage'),
          },
          {
            path: 'login/failed',
            lazy: page(() => import('../features/account/routes/login-failed-page'), 'LoginFailedPage'),
          },
          {
            path: 'authed/:authToken/action/:type',
            lazy: page(() => import('../features/account/routes/action-link-page'), 'ActionLinkPage'),
          },
          {
            path: 'stories/review',
            lazy: page(() => import('../features/stories/routes/review-queue-page'), 'ReviewQueuePage'),
          },
          {
            path: 'suggest',
            lazy: page(() => import('../features/ranking/routes/suggest-page'), 'SuggestPage'),
          },
          {
            path: 'suggestions/review',
            lazy: page(() => import('../features/ranking/routes/suggestion-queue-page'), 'SuggestionQueuePage'),
          },
          {
            path: 'moderation',
            lazy: page(() => import('../features/account/routes/moderation-page'), 'ModerationPage'),
          },
          {
            path: 'pro-codes',
            lazy: page(() => import('../features/subscriptions/routes/pro-discount-codes-page'), 'ProDiscountCodesPage'),
          },
          {
            path: 'pro-refunds',
            lazy: page(() => import('../features/subscriptions/routes/pro-refunds-page'), 'ProRefundsPage'),
          },
          {
            path: 'stories/site/:host/:sort?',
            lazy: page(() => import('../features/stories/routes/site-page'), 'SitePage'),
          },
          // The feeds are named paths; any other /stories/{id} is a story's own page.
          ...['stories', 'stories/new', 'stories/following'].map((path) => ({
            path,
            lazy: page(() => import('../features/stories/routes/stories-page'), 'StoriesPage'),
          })),
          {
            path: 'stories/:id',
            lazy: page(() => import('../features/stories/routes/story-page'), 'StoryPage'),
          },
          {
            path: 'transfer',
            lazy: page(() => import('../features/transfers/routes/transfer-home-page'), 'TransferHomePage'),
          },
          {
            path: 'transfers',
            lazy: page(() => import('../features/transfers/routes/transfers-page'), 'TransfersPage'),
          },
          {
            path: 'transfers/requests',
            lazy: page(() => import('../features/transfers/routes/file-requests-page'), 'FileRequestsPage'),
          },
          {
            path: 'transfers/:id',
            lazy: page(() => import('../features/transfers/routes/transfer-page'), 'TransferPage'),
          },
          {
            path: 'transfers/people/:userId',
            lazy: page(() => import('../features/transfers/routes/sender-profile-page'), 'SenderProfilePage'),
          },
          {
            path: 'transfer/request/:id',
            lazy: page(() => import('../features/transfers/routes/request-upload-page'), 'RequestUploadPage'),
          },
          {
            path: 'transfer/:id/package',
            lazy: page(() => import('../features/transfers/routes/package-page'), 'PackagePage'),
          },
          {
            path: 'upgrades',
            lazy: page(() => import('../features/subscriptions/routes/upgrades-page'), 'UpgradesPage'),
          },
          {
            path: 'checkout',
            lazy: page(() => import('../features/subscriptions/routes/checkout-page'), 'CheckoutPage'),
          },
          {
            path: 'subscription',
            lazy: page(() => import('../features/subscriptions/routes/subscription-page'), 'SubscriptionPage'),
          },
          {
            path: 'shop/:shopId',
            lazy: page(() => import('../features/store/routes/shop-page'), 'ShopPage'),
          },
          {
            path: 'product/:productStockId',
            lazy: page(() => import('../features/store/routes/product-page'), 'ProductPage'),
          },
          {
            path: 'product/:productStockId/grade/:productStockGradeId',
            lazy: page(() => import('../features/store/routes/grade-page'), 'GradePage'),
          },
          {
            path: 'cart/:merchantAccountId',
            lazy: page(() => import('../features/store/routes/cart-page'), 'CartPage'),
          },
          {
            path: 'store/orders',
            lazy: page(() => import('../features/store/routes/orders-page'), 'OrdersPage'),
          },
          {
            path: 'merchant',
            lazy: page(() => import('../features/merchant/routes/merchant-home-page'), 'MerchantHomePage'),
          },
          {
            path: 'merchant/products/:productStockId',
            lazy: page(() => import('../features/merchant/routes/merchant-product-page'), 'MerchantProductPage'),
          },
          {
            path: 'merchant/products/:productStockId/grades/:productStockGradeId',
            lazy: page(() => import('../features/merchant/routes/merchant-grade-page'), 'MerchantGradePage'),
          },
          {
            path: 'analytics',
            lazy: page(() => import('../features/analytics/routes/analytics-page'), 'AnalyticsPage'),
          },
          {
            path: 'notifications',
            lazy: page(() => import('../features/notifications/routes/notifications-page'), 'NotificationsPage'),
          },
          {
            path: 'unsubscribe',
            lazy: page(() => import('../features/account/routes/unsubscribe-page'), 'UnsubscribePage'),
          },
          {
            path: 'logout',
            lazy: page(() => import('../features/account/routes/logout-page'), 'LogoutPage'),
          },
          {
            path: 'me',
            lazy: async () => {
              const [{ MePage }, { FollowedPublicationsList }] = await Promise.all([
                import('../features/account/routes/me-page'),
                import('../features/ranking/components/followed-publications-list'),
              ]);
              const followed = {
                title: 'Publications you follow',
                lede: 'We tell you when one enters a top 100, climbs 10 places or more, or posts again after a quiet spell.',
                content: <FollowedPublicationsList />,
              };
              return {
                Component: function AccountPage() {
                  return <MePage extraSections={[followed]} />;
                },
              };
            },
          },
          {
            // '/@jane' is a public profile; any other one-segment path is not a page. Static
            // segments (about, search, me, ...) rank above this dynamic one.
            path: ':handle',
            lazy: async () => {
              const [{ ProfilePage }, { UserStories }, { NotFoundPage }] = await Promise.all([
                import('../features/account/routes/profile-page'),
                import('../features/stories/components/user-stories'),
                import('./routes/not-found-page'),
              ]);
              const stories = (user: { userId: string; name: string; username: string }) => (
                <UserStories userId={user.userId} name={user.name || `@${user.username}`} />
              );
              // Lazy runs once per route, so the choice is made on every render, not here.
              return {
                Component: function HandlePage() {
                  return useParams().handle?.startsWith('@') ? <ProfilePage stories={stories} /> : <NotFoundPage />;
                },
              };
            },
          },
          { path: '*', lazy: page(() => import('./routes/not-found-page'), 'NotFoundPage') },
        ],
      },
    ],
  },
];

/** The layout, with analytics told who is signed in. */
function Shell() {
  useAnalyticsIdentity();
  return <AppLayout />;
}

/**
 * Loads the code of the page a path leads to, ahead of a click (lib/prefetch.ts): the matched
 * routes' lazy modules, which the router's own load then finds already fetched.
 */
export function prefetchRoute(pathname: string, routes: RouteObject[] = pageRoutes): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (typeof route.lazy === 'function') {
      route.lazy().catch((error: unknown) => console.warn('Prefetching a page failed', error));
    }
  }
}

export function createRouter() {
  const router = createBrowserRouter(pageRoutes);
  setRoutePrefetcher((pathname) => prefetchRoute(pathname));
  startAnalytics();
  trackPageViews(router);
  return router;
}
