import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import { currentUserQueryKey } from '../../../lib/current-user';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const completeActionEndpoint = endpoint<typeof routes.completeAction>('GET', '/api/i/user/authed/{authToken}/action/{type}');

/** The emailed action that verifies the account's email address. */
export const VERIFY_EMAIL_ACTION = 'verify-email';

/** The 400 codes of an action link that cannot be used; each comes with a message to show. */
export const ACTION_LINK_ERROR_CODES = [
  'INVALID_ACTION_LINK',
  'ACTION_LINK_USED',
  'ACTION_LINK_EXPIRED',
  'ACTION_TYPE_MISMATCH',
  'ACTION_LINK_STALE',
] as const;

export interface CompleteActionInput {
  authToken: string;
  type: string;
}

/** Spends an emailed action link's token (once) and performs its action on the server. */
export function completeAction({ authToken, type }: CompleteActionInput) {
  return completeActionEndpoint({ params: { authToken, type } });
}

/** Completes the action; a verified email changes what the current user and account overview say. */
export function useCompleteAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'completeAction'],
    mutationFn: completeAction,
    onSuccess: async ({ type }) => {
      if (type !== VERIFY_EMAIL_ACTION) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
        queryClient.invalidateQueries({ queryKey: accountKeys.overviews }),
      ]);
    },
  });
}

/** Whether the failure means the link itself is no good (bad, used, expired, stale, wrong type). */
export function isActionLinkError(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    (error.status === 400 || (ACTION_LINK_ERROR_CODES as readonly (string | undefined)[]).includes(error.code))
  );
}
