import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const listSessionsEndpoint = endpoint<typeof routes.listSessions>('GET', '/api/i/user/me/v/sessions');

/** The signed-in user's active sessions, the current one flagged. */
export function listSessions(signal?: AbortSignal) {
  return listSessionsEndpoint(signal ? { signal } : {});
}

export function useSessions(userId: string) {
  return useQuery({ queryKey: accountKeys.sessions(userId), queryFn: ({ signal }) => listSessions(signal) });
}
