import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const blockUserEndpoint = endpoint<typeof routes.blockUser>('POST', '/api/i/user/me/mod/interact-user/{userId}/block');

/** Blocks user `userId` (idempotent). */
export function blockUser(userId: string) {
  return blockUserEndpoint({ params: { userId } });
}

/** Blocking changes the account's blocked-users list. */
export function useBlockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'blockUser'],
    mutationFn: blockUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.overviews }),
  });
}
