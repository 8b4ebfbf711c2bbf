import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const getAccountEndpoint = endpoint<typeof routes.getAccount>('GET', '/api/i/user/me/v/account');

/** The signed-in user's own account: full user, settings, email preferences, blocked users. */
export function getAccount(signal?: AbortSignal) {
  return getAccountEndpoint(signal ? { signal } : {});
}

export function accountQueryOptions(userId: string) {
  return queryOptions({ queryKey: accountKeys.overview(userId), queryFn: ({ signal }) => getAccount(signal) });
}

/** The account of `userId` (the current user); idle while nobody is signed in. */
export function useAccount(userId: string | null | undefined) {
  return useQuery({ ...accountQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
