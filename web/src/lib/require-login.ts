import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { currentUserQueryOptions, useCurrentUser } from './current-user';
import { useLoginModal } from './login-modal';

/**
 * Wrap an action that needs a signed-in user: with no current user the login modal opens
 * instead and the action does not run. A click made while the session is still being asked
 * for waits for its answer: a signed-in user who clicks early must not be asked to log in.
 */
export function useRequireLogin(): (action: () => void) => void {
  const { user, isPending } = useCurrentUser();
  const queryClient = useQueryClient();
  const loginModal = useLoginModal();
  return useCallback(
    (action: () => void) => {
      if (user) {
        action();
        return;
      }
      if (!isPending) {
        loginModal.open();
        return;
      }
      void queryClient.fetchQuery(currentUserQueryOptions).then(
        (answered) => (answered ? action() : loginModal.open()),
        () => loginModal.open(),
      );
    },
    [user, isPending, queryClient, loginModal],
  );
}
