import type { ProPriceId } from '../api/subscription-keys';

/** The Pro plan's pages (registered in web/src/app/router.tsx). */
export const UPGRADES_PATH = '/upgrades';
export const SUBSCRIPTION_PATH = '/subscription';
export const CHECKOUT_PATH = '/checkout';
/** The checkout's query parameter naming the price. */
export const CHECKOUT_PRICE_PARAM = 'price';

export function checkoutPath(priceId: ProPriceId): string {
  return `${CHECKOUT_PATH}?${new URLSearchParams({ [CHECKOUT_PRICE_PARAM]: priceId }).toString()}`;
}
