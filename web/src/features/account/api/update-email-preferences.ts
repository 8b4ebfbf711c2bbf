import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type AccountOverview, accountKeys, type EmailPreferences } from './account-keys';

const updateEmailPreferencesEndpoint = endpoint<typeof routes.updateEmailPreferences>('PUT', '/api/i/user/me/mod/email/pref');

/** Which emails the signed-in user wants. */
export function updateEmailPreferences(preferences: EmailPreferences) {
  return updateEmailPreferencesEndpoint({ body: preferences });
}

export function useUpdateEmailPreferences(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'updateEmailPreferences'],
    mutationFn: updateEmailPreferences,
    onSuccess: async ({ emailPreferences }) => {
      queryClient.setQueryData<AccountOverview>(accountKeys.overview(userId), (overview) =>
        overview ? { ...overview, emailPreferences } : overview,
      );
      await queryClient.invalidateQueries({ queryKey: accountKeys.overview(userId) });
    },
  });
}
