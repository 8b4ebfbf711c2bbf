import { useQuery } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const getUserByIdOrUsernameEndpoint = endpoint<typeof routes.getUserByIdOrUsername>('GET', '/api/i/user/{id}/v/idOrUsername');

/** A public user by id or username; a 404 when there is none. */
export function getUserByIdOrUsername(idOrUsername: string, signal?: AbortSignal) {
  return getUserByIdOrUsernameEndpoint({ params: { id: idOrUsername }, ...(signal ? { signal } : {}) });
}

export function usePublicUser(username: string) {
  return useQuery({
    queryKey: accountKeys.profile(username),
    queryFn: ({ signal }) => getUserByIdOrUsername(username, signal),
    enabled: username.length > 0,
    staleTime: 60_000,
  });
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
