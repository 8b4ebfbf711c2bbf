import type { QueryClient } from '@tanstack/react-query';
import { type SubscriptionScreen, type SubscriptionView, subscriptionKeys, TRANSFERS_QUERY_PREFIX } from './subscription-keys';

/**
 * After the subscription changed (bought, card replaced, canceled): the subscription page shows
 * the answer at once and is refetched for the rest (payments, limits), and the answers that
 * depend on the plan (the upgrades page, the transfer pages' limits) are refetched.
 */
export async function afterPlanChange(queryClient: QueryClient, userId: string, subscription?: SubscriptionView): Promise<void> {
  if (subscription) {
    queryClient.setQueryData<SubscriptionScreen>(subscriptionKeys.screen(userId), (screen) =>
      screen ? { ...screen, subscription } : screen,
    );
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.screen(userId) }),
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.upgrades(userId) }),
    queryClient.invalidateQueries({ queryKey: TRANSFERS_QUERY_PREFIX }),
  ]);
}
