import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const checkUsernameIsFreeEndpoint = endpoint<typeof routes.checkUsernameIsFree>(
  'GET',
  '/api/i/user/userme/v/check/usernameIsFree',
);

/** Whether `username` can be taken, and if not, the server's reason. */
export function checkUsernameIsFree(username: string, signal?: AbortSignal) {
  return checkUsernameIsFreeEndpoint({ query: { username }, ...(signal ? { signal } : {}) });
}

/** Asks about `username` when it is given (pass null to ask nothing); debounce before calling. */
export function useUsernameIsFree(username: string | null) {
  return useQuery({
    queryKey: accountKeys.usernameIsFree(username ?? ''),
    queryFn: ({ signal }) => checkUsernameIsFree(username ?? '', signal),
    enabled: Boolean(username),
    staleTime: 30_000,
    retry: false,
  });
}
