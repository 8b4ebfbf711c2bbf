import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const disconnectTwitterEndpoint = endpoint<typeof routes.disconnectTwitter>(
  'DELETE',
  '/api/i/user/auth/connection/twitter/disconnect',
);

/** Removes the signed-in user's Twitter connection; 409 ONLY_LOGIN_METHOD when it is their only login. */
export function disconnectTwitter() {
  return disconnectTwitterEndpoint({});
}

/** Disconnecting changes the account overview's connected accounts. */
export function useDisconnectTwitter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'disconnectTwitter'],
    mutationFn: disconnectTwitter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.overviews }),
  });
}
