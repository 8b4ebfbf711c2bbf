import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import { currentUserQueryKey, setCurrentUser } from '../../../lib/current-user';
import { forgetHomeBoard } from '../../../lib/home-board';
import type { routes } from '@shared/routes';

const logoutEndpoint = endpoint<typeof routes.logout>('GET', '/api/i/user/auth/logout');

/** Ends the session on the server, which clears the session cookie. */
export function logout() {
  return logoutEndpoint();
}

/** Logs out; on success nobody is signed in any more, so the current user becomes null. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'logout'],
    mutationFn: logout,
    onSuccess: async () => {
      // A "who am I" answer in flight may predate the logout: drop it rather than show a stale user.
      await queryClient.cancelQueries({ queryKey: currentUserQueryKey });
      setCurrentUser(queryClient, null);
      forgetHomeBoard();
    },
  });
}
