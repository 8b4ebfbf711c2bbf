import { useQuery } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const activeSubscriptionEndpoint = endpoint<typeof routes.getActiveSubscription>(
  'GET',
  '/api/i/ourTransfers/subscription/product/active',
);
const merchantDashboardEndpoint = endpoint<typeof routes.showMerchantDashboard>(
  'GET',
  '/api/i/penpay/merchant/me/v/screen/dashboard',
);

/** The Pro plan as deleting the account meets it: null when it gives no Pro now. */
export interface ProAtDeletion {
  /** Still renews: deleting cancels it at the gateway. */
  renews: boolean;
  /** The last day paid for (YYYY-MM-DD), which is not refunded; null when none is known. */
  paidThroughDate: string | null;
}

/** The caller's own shop as deleting the account meets it: null when they have none. */
export interface ShopAtDeletion {
  shopName: string;
  /** Subscribers it still bills (active or past due): while above zero the server refuses the deletion. */
  billingSubscriptions: number;
}

async function proAtDeletion(signal: AbortSignal): Promise<ProAtDeletion | null> {
  const { subscription } = await activeSubscriptionEndpoint({ signal });
  if (!subscription?.givesPro) return null;
  return { renews: subscription.status !== 'Canceled', paidThroughDate: subscription.paidThroughDate };
}

async function shopAtDeletion(signal: AbortSignal): Promise<ShopAtDeletion | null> {
  try {
    const dashboard = await merchantDashboardEndpoint({ signal });
    const { activeSubscriptions, pastDueSubscriptions } = dashboard.figures;
    return { shopName: dashboard.merchant.shopName, billingSubscriptions: activeSubscriptions + pastDueSubscriptions };
  } catch (error) {
    // The dashboard answers 404 to someone without a shop.
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * What deleting the account would do to the caller's Pro plan and to their shop, read afresh
 * each time the dialog opens (the Pro plan's and the shop's own routes; nothing is cached).
 */
export function useDeletionConsequences() {
  const options = { staleTime: 0, gcTime: 0, retry: false } as const;
  const pro = useQuery({
    queryKey: [...accountKeys.all, 'deletion', 'pro'],
    queryFn: ({ signal }) => proAtDeletion(signal),
    ...options,
  });
  const shop = useQuery({
    queryKey: [...accountKeys.all, 'deletion', 'shop'],
    queryFn: ({ signal }) => shopAtDeletion(signal),
    ...options,
  });
  return { pro, shop };
}
