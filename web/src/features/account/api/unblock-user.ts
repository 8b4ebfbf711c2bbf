import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type AccountOverview, accountKeys } from './account-keys';

const unblockUserEndpoint = endpoint<typeof routes.unblockUser>('POST', '/api/i/user/me/mod/interact-user/{userId}/unblock');

/** Unblocks user `userId` (idempotent). */
export function unblockUser(userId: string) {
  return unblockUserEndpoint({ params: { userId } });
}

/** Unblocking drops the user from the cached blocked list at once, then refetches it. */
export function useUnblockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'unblockUser'],
    mutationFn: unblockUser,
    onSuccess: async (_answer, userId) => {
      queryClient.setQueriesData<AccountOverview>({ queryKey: accountKeys.overviews }, (overview) =>
        overview ? { ...overview, blockedUsers: overview.blockedUsers.filter((user) => user.userId !== userId) } : overview,
      );
      await queryClient.invalidateQueries({ queryKey: accountKeys.overviews });
    },
  });
}
