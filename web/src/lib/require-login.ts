import { useCallback } from 'react';
import { useCurrentUser } from './current-user';
import { useLoginModal } from './login-modal';

/**
 * Wrap an action that needs a signed-in user: with no current user the
 * login modal opens instead and the action does not run. Returns whether the action ran.
 */
export function useRequireLogin(): (action: () => void) => boolean {
  const { user } = useCurrentUser();
  const loginModal = useLoginModal();
  return useCallback(
    (action: () => void) => {
      if (!user) {
        loginModal.open();
        return false;
      }
      action();
      return true;
    },
    [user, loginModal],
  );
}
