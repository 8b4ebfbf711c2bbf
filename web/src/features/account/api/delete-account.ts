import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import { currentUserQueryKey, setCurrentUser } from '../../../lib/current-user';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const deleteAccountEndpoint = endpoint<typeof routes.deleteAccount>('DELETE', '/api/i/user/me/mod');

/** Deletes the signed-in user's account; the server wants a login in the last 15 minutes. */
export function deleteAccount() {
  return deleteAccountEndpoint();
}

/** On success `onDeleted` runs (go home), then nobody is signed in and the account's cached data is dropped. */
export function useDeleteAccount({ onDeleted }: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'deleteAccount'],
    mutationFn: deleteAccount,
    onSuccess: async () => {
      // Leave the page first: it unmounts when the current user goes away, dropping mutate callbacks.
      onDeleted?.();
      await queryClient.cancelQueries({ queryKey: currentUserQueryKey });
      setCurrentUser(queryClient, null);
      queryClient.removeQueries({ queryKey: accountKeys.all });
    },
  });
}

/** The server refused because the login is too old: log in again, then delete. */
export function isRecentLoginRequired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'RECENT_LOGIN_REQUIRED';
}
