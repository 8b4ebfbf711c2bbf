import { routes } from '@shared/routes';
import type { merchantDashboardSchema } from '@shared/schemas/merchant';
import type { activeSubscriptionSchema } from '@shared/schemas/subscriptions';
import type * as z from '@shared/zod';
import { proSubscriptionView } from '../../../test/pro-subscription';
import { jane } from '../../../test/render-shell';
import { type RouteStub, stubRoute } from '../../../test/stub-routes';
import type { AccountOverview, FullUser, PublicUser, SessionSummary } from '../api/account-keys';
import { stubApi } from './stub-api';

export function publicUser(overrides: Partial<PublicUser> = {}): PublicUser {
  const username = overrides.username ?? 'sam';
  return {
    id: `user-${username}`,
    userId: `user-${username}`,
    username,
    name: 'Sam Lee',
    createdAt: '2024-03-15T12:00:00.000Z',
    imageUrl: null,
    hasOwnImageUrl: false,
    hasEmail: true,
    hasValidEmail: true,
    isSuperUser: false,
    websiteUrl: null,
    lastLoginAt: '2025-01-10T12:00:00.000Z',
    followerCount: 12,
    followingCount: 3,
    ...overrides,
  };
}

/** Jane as anyone sees her (the public user route never answers an email). */
export const janePublic: PublicUser = publicUser({
  username: jane.username,
  userId: jane.userId,
  id: jane.userId,
  name: jane.name,
  websiteUrl: 'https://jane.example',
});

export const janeFull: FullUser = { ...janePublic, email: 'jane@example.com', emailVerified: true };

export function accountOverview(overrides: Partial<AccountOverview> = {}): AccountOverview {
  return {
    user: janeFull,
    settings: { theme: 'system', defaultBoard: 'followers', activeOnlyByDefault: false },
    emailPreferences: { productUpdates: true, weeklyDigest: true, notificationEmails: true },
    blockedUsers: [],
    connectedAccounts: [],
    ...overrides,
  };
}

export const sessions: SessionSummary[] = [
  {
    sessionId: 'sess-here',
    createdAt: '2025-01-01T10:00:00.000Z',
    lastUsedAt: '2025-01-10T10:00:00.000Z',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Chrome/131.0 Safari/605.1.15',
    isCurrent: true,
  },
  {
    sessionId: 'sess-phone',
    createdAt: '2024-12-01T10:00:00.000Z',
    lastUsedAt: '2025-01-05T10:00:00.000Z',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1',
    isCurrent: false,
  },
];

/** The public user route answering `user` for its username, leaving other names to later stubs. */
export function stubPublicUser(user: PublicUser, idOrUsername = user.username): RouteStub {
  return stubRoute(routes.getUserByIdOrUsername, { body: user }, { id: idOrUsername });
}

/** Stubs fetch with these routes first; the account and the sessions answer by default. */
export function stubAccountApi(...stubs: RouteStub[]) {
  return stubApi(
    ...stubs,
    stubRoute(routes.getAccount, { body: accountOverview() }),
    stubRoute(routes.listSessions, { body: { sessions } }),
    // What the delete dialog reads: no Pro plan, and no shop (the dashboard's 404).
    stubRoute(routes.getActiveSubscription, { body: { subscription: null } }),
    stubRoute(routes.showMerchantDashboard, { status: 404, body: { message: 'You have no shop.', code: 'NOT_FOUND' } }),
  );
}

type ActiveSubscription = z.infer<typeof activeSubscriptionSchema>;
type MerchantDashboard = z.infer<typeof merchantDashboardSchema>;

/** Jane's Pro plan as GET …/subscription/product/active answers it: renewing unless told otherwise. */
export const proSubscription = (
  overrides: Partial<NonNullable<ActiveSubscription['subscription']>> = {},
): ActiveSubscription => ({ subscription: proSubscriptionView(overrides) });

/** Jane's shop dashboard, billing `active` and `pastDue` subscribers now. */
export const shopDashboard = (active: number, pastDue = 0): MerchantDashboard => ({
  seo: { title: 'Jane’s Prints · dashboard', description: 'Dashboard.', keywords: [], imageUrl: 'https://example.com/og.png' },
  merchant: {
    id: 'mer_aaaaaaaaaaaaaaaaaaaa',
    handle: 'janes-prints',
    shopName: 'Jane’s Prints',
    description: '',
    currency: 'USD',
    logo: null,
    gateway: null,
    createdAt: '2026-11-01T10:00:00.000Z',
  },
  figures: {
    currency: 'USD',
    days: [],
    totals: {
      orders: 0,
      units: 0,
      revenue: { amountMinor: 0, currency: 'USD' },
      discounts: { amountMinor: 0, currency: 'USD' },
      refunds: { count: 0, amount: { amountMinor: 0, currency: 'USD' } },
    },
    activeSubscriptions: active,
    pastDueSubscriptions: pastDue,
  },
  recentSales: [],
  productCounts: { stocked: 1, unstocked: 0 },
});
