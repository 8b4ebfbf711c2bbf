import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import { currentUserQueryKey, setCurrentUser } from '../../../lib/current-user';
import type { routes } from '@shared/routes';

const confirmLoginEmailEndpoint = endpoint<typeof routes.confirmLoginEmail>('POST', '/api/i/user/auth/login/email/confirm');

/** The 400 codes of a login link that cannot be used; each comes with a message to show. */
export const LOGIN_LINK_ERROR_CODES = ['INVALID_LOGIN_LINK', 'LOGIN_LINK_USED', 'LOGIN_LINK_EXPIRED'] as const;

/** Spends the emailed login link's token and starts a session (the server sets the cookie). */
export function confirmLoginEmail(token: string) {
  return confirmLoginEmailEndpoint({ body: { token } });
}

/** Confirms the link; on success the signed-in user goes straight into the current-user cache. */
export function useConfirmLoginEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'confirmLoginEmail'],
    mutationFn: confirmLoginEmail,
    onSuccess: async ({ user }) => {
      // A "who am I" answer still in flight was asked for before the cookie existed: drop it.
      await queryClient.cancelQueries({ queryKey: currentUserQueryKey });
      setCurrentUser(queryClient, user);
    },
  });
}

/** Whether the failure means the link itself is no good (bad, used, expired, malformed). */
export function isLoginLinkError(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    (error.status === 400 || (LOGIN_LINK_ERROR_CODES as readonly (string | undefined)[]).includes(error.code))
  );
}
