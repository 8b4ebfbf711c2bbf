import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { routes } from '@shared/routes';
import type { UserSettings } from '@shared/schemas/account';
import { endpoint } from './api-client';
import { useCurrentUser } from './current-user';

const getSettingsEndpoint = endpoint<typeof routes.getSettings>('GET', '/api/i/user/me/v/settings');

export const userSettingsQueryKey = (userId: string) => ['user-settings', userId] as const;

/** The signed-in person's settings (theme, default board), which the shell and the home page follow. */
export function userSettingsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: userSettingsQueryKey(userId),
    queryFn: async ({ signal }) => (await getSettingsEndpoint({ signal })).settings,
    staleTime: Infinity,
  });
}

/** Undefined while unknown or for a visitor. */
export function useUserSettings(): { settings: UserSettings | undefined; isPending: boolean } {
  const { user, isPending: userPending } = useCurrentUser();
  const query = useQuery({ ...userSettingsQueryOptions(user?.userId ?? ''), enabled: Boolean(user) });
  return { settings: query.data, isPending: userPending || (Boolean(user) && query.isPending) };
}

/** What a save answered, so everything that follows the settings follows it at once. */
export function setUserSettings(queryClient: QueryClient, userId: string, settings: UserSettings): void {
  queryClient.setQueryData(userSettingsQueryKey(userId), settings);
}
