import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterAccountChange, type MerchantAccountView } from './merchant-keys';

const connectMerchantGatewayEndpoint = endpoint<typeof routes.connectMerchantGateway>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/gateway',
);

export type ConnectGatewayBody = BodyOf<typeof routes.connectMerchantGateway>;

/**
 * Connects (or replaces) the shop's Braintree account. The keys are tried at Braintree first
 * (400 when refused) and never come back; 'local' makes a test account, locally only.
 */
export function connectMerchantGateway(body: ConnectGatewayBody) {
  return connectMerchantGatewayEndpoint({ body });
}

/** `onConnected` runs before the answer reaches the cache, so the page shows what was connected at once. */
export function useConnectMerchantGateway(userId: string, onConnected: (account: MerchantAccountView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectMerchantGateway,
    onSuccess: (account) => {
      onConnected(account);
      return afterAccountChange(queryClient, userId, account);
    },
  });
}
