import { createBrowserRouter, type RouteObject, useParams } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { AppLayout } from './layout/app-layout';
import { RouteError } from './routes/route-error';

/**
 * Page routes of the ranking site, the account pages and the other apps' (transfers, the Pro
 * plan, the storefront's shops, carts and orders, the merchant area). Pages load on demand, so the first
 * visit downloads only the shell and the page it opens.
 */
export const pageRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    // Shown while the first page's code loads, and when a page's code cannot be loaded.
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).MostFollowedPage }),
          },
          {
            path: 'active',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).MostFollowedActivePage }),
          },
          {
            path: 'growing',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).FastestGrowingPage }),
          },
          {
            path: 'growing/active',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).FastestGrowingActivePage }),
          },
          {
            path: 'recent',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).RecentlyActivePage }),
          },
          {
            path: 'recent/active',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).RecentlyActiveActivePage }),
          },
          {
            path: 'topic/:tag',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).TopicPage }),
          },
          {
            path: 'topic/:tag/growing',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).TopicGrowingPage }),
          },
          {
            path: 'topic/:tag/recent',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/board-pages')).TopicRecentPage }),
          },
          {
            path: 'topics',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/topics-page')).TopicsPage }),
          },
          {
            path: 'topics/:page',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/topics-page')).TopicsPage }),
          },
          {
            path: 'following',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/following-page')).FollowingPage }),
          },
          {
            path: 'pub/:slug',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/publication-page')).PublicationPage }),
          },
          {
            path: 'search',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/search-page')).SearchPage }),
          },
          { path: 'about', lazy: async () => ({ Component: (await import('./routes/about-page')).AboutPage }) },
          {
            path: 'login/confirm',
            lazy: async () => ({ Component: (await import('../features/account/routes/login-confirm-page')).LoginConfirmPage }),
          },
          {
            path: 'login/failed',
            lazy: async () => ({ Component: (await import('../features/account/routes/login-failed-page')).LoginFailedPage }),
          },
          {
            path: 'authed/:authToken/action/:type',
            lazy: async () => ({ Component: (await import('../features/account/routes/action-link-page')).ActionLinkPage }),
          },
          {
            path: 'stories/review',
            lazy: async () => ({ Component: (await import('../features/stories/routes/review-queue-page')).ReviewQueuePage }),
          },
          {
            path: 'suggest',
            lazy: async () => ({ Component: (await import('../features/ranking/routes/suggest-page')).SuggestPage }),
          },
          {
            path: 'suggestions/review',
            lazy: async () => ({
              Component: (await import('../features/ranking/routes/suggestion-queue-page')).SuggestionQueuePage,
            }),
          },
          {
            path: 'moderation',
            lazy: async () => ({ Component: (await import('../features/account/routes/moderation-page')).ModerationPage }),
          },
          {
            path: 'stories/:feed?',
            lazy: async () => ({ Component: (await import('../features/stories/routes/stories-page')).StoriesPage }),
          },
          {
            path: 'transfer',
            lazy: async () => ({ Component: (await import('../features/transfers/routes/transfer-home-page')).TransferHomePage }),
          },
          {
            path: 'transfers',
            lazy: async () => ({ Component: (await import('../features/transfers/routes/transfers-page')).TransfersPage }),
          },
          {
            path: 'transfers/:id',
            lazy: async () => ({ Component: (await import('../features/transfers/routes/transfer-page')).TransferPage }),
          },
          {
            path: 'transfers/people/:userId',
            lazy: async () => ({
              Component: (await import('../features/transfers/routes/sender-profile-page')).SenderProfilePage,
            }),
          },
          {
            path: 'transfer/:id/package',
            lazy: async () => ({ Component: (await import('../features/transfers/routes/package-page')).PackagePage }),
          },
          {
            path: 'upgrades',
            lazy: async () => ({ Component: (await import('../features/subscriptions/routes/upgrades-page')).UpgradesPage }),
          },
          {
            path: 'checkout',
            lazy: async () => ({ Component: (await import('../features/subscriptions/routes/checkout-page')).CheckoutPage }),
          },
          {
            path: 'subscription',
            lazy: async () => ({
              Component: (await import('../features/subscriptions/routes/subscription-page')).SubscriptionPage,
            }),
          },
          {
            path: 'shop/:shopId',
            lazy: async () => ({ Component: (await import('../features/store/routes/shop-page')).ShopPage }),
          },
          {
            path: 'product/:productStockId',
            lazy: async () => ({ Component: (await import('../features/store/routes/product-page')).ProductPage }),
          },
          {
            path: 'product/:productStockId/grade/:productStockGradeId',
            lazy: async () => ({ Component: (await import('../features/store/routes/grade-page')).GradePage }),
          },
          {
            path: 'cart/:merchantAccountId',
            lazy: async () => ({ Component: (await import('../features/store/routes/cart-page')).CartPage }),
          },
          {
            path: 'store/orders',
            lazy: async () => ({ Component: (await import('../features/store/routes/orders-page')).OrdersPage }),
          },
          {
            path: 'merchant',
            lazy: async () => ({ Component: (await import('../features/merchant/routes/merchant-home-page')).MerchantHomePage }),
          },
          {
            path: 'merchant/products/:productStockId',
            lazy: async () => ({
              Component: (await import('../features/merchant/routes/merchant-product-page')).MerchantProductPage,
            }),
          },
          {
            path: 'merchant/products/:productStockId/grades/:productStockGradeId',
            lazy: async () => ({
              Component: (await import('../features/merchant/routes/merchant-grade-page')).MerchantGradePage,
            }),
          },
          {
            path: 'notifications',
            lazy: async () => ({
              Component: (await import('../features/notifications/routes/notifications-page')).NotificationsPage,
            }),
          },
          {
            path: 'unsubscribe',
            lazy: async () => ({ Component: (await import('../features/account/routes/unsubscribe-page')).UnsubscribePage }),
          },
          {
            path: 'logout',
            lazy: async () => ({ Component: (await import('../features/account/routes/logout-page')).LogoutPage }),
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
          { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found-page')).NotFoundPage }) },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(pageRoutes);
}
