import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const endSessionEndpoint = endpoint<typeof routes.endSession>('DELETE', '/api/i/user/me/mod/session/{sessionId}');

/** Ends one of the signed-in user's sessions (logs that device out). */
export function endSession(sessionId: string) {
  return endSessionEndpoint({ params: { sessionId } });
}

export function useEndSession(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'endSession'],
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions(userId) }),
  });
}
