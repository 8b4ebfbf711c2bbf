import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterAccountChange, type MerchantAccountView } from './merchant-keys';

const registerMerchantEndpoint = endpoint<typeof routes.registerMerchant>('POST', '/api/i/penpay/merchant/register');

export type RegisterMerchantBody = BodyOf<typeof routes.registerMerchant>;

/** Opens the caller's shop; 409 when they have one already or the address is taken. */
export function registerMerchant(body: RegisterMerchantBody) {
  return registerMerchantEndpoint({ body });
}

/**
 * `onRegistered` runs before the new account reaches the cache, so the page moves on to its next
 * step in the same render that learns the shop exists (never a glimpse of the dashboard between).
 */
export function useRegisterMerchant(userId: string, onRegistered: (account: MerchantAccountView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerMerchant,
    onSuccess: (account) => {
      onRegistered(account);
      return afterAccountChange(queryClient, userId, account);
    },
  });
}
