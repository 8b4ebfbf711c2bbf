import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import { setUserSettings } from '../../../lib/user-settings';
import type { routes } from '@shared/routes';
import { type AccountOverview, accountKeys, type UserSettings } from './account-keys';

const upsertSettingsEndpoint = endpoint<typeof routes.upsertSettings>('POST', '/api/i/user/{id}/mod/settings');

/** Merges `settings` into the settings of user `userId` (the signed-in user). */
export function upsertSettings({ userId, settings }: { userId: string; settings: UserSettings }) {
  return upsertSettingsEndpoint({ params: { id: userId }, body: settings });
}

export function useUpsertSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'upsertSettings'],
    mutationFn: upsertSettings,
    onSuccess: async ({ settings }, { userId }) => {
      // The shell's theme and the home page's board follow the saved settings at once.
      setUserSettings(queryClient, userId, settings);
      queryClient.setQueryData<AccountOverview>(accountKeys.overview(userId), (overview) =>
        overview ? { ...overview, settings } : overview,
      );
      await queryClient.invalidateQueries({ queryKey: accountKeys.overview(userId) });
    },
  });
}
