import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import { type CurrentUser, currentUserQueryKey } from '../../../lib/current-user';
import type { routes } from '@shared/routes';
import { type AccountOverview, accountKeys } from './account-keys';

const updateProfileEndpoint = endpoint<typeof routes.updateProfile>('PUT', '/api/i/user/me/mod/profile');

export interface ProfileChanges {
  name?: string;
  username?: string;
  websiteUrl?: string | null;
  imageUrl?: string | null;
}

/** Changes name, username (if free), website and image; answers the full user. */
export function updateProfile(body: ProfileChanges) {
  return updateProfileEndpoint({ body });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'updateProfile'],
    mutationFn: updateProfile,
    onSuccess: async (user) => {
      queryClient.setQueryData<AccountOverview>(accountKeys.overview(user.userId), (overview) =>
        overview ? { ...overview, user } : overview,
      );
      // The top bar shows the name, username and image of the current user: the answer has them all.
      queryClient.setQueryData<CurrentUser | null>(currentUserQueryKey, (current) =>
        current && current.userId === user.userId
          ? { ...current, name: user.name, username: user.username, imageUrl: user.imageUrl }
          : current,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.overviews }),
        queryClient.invalidateQueries({ queryKey: accountKeys.profiles }),
      ]);
    },
  });
}

export type ProfileField = keyof ProfileChanges;
const PROFILE_FIELDS: readonly ProfileField[] = ['name', 'username', 'websiteUrl', 'imageUrl'];

/**
 * Which field each part of a failed save belongs to: a 409 is the username being taken, a 400
 * lists `fields` ({ field, message }); whatever fits no field goes under `form`.
 */
export function profileErrors(error: unknown): Partial<Record<ProfileField | 'form', string>> {
  if (!(error instanceof ApiError)) return { form: 'The server did not answer. Check your connection and try again.' };
  if (error.status === 409) return { username: error.message };
  const fields = Array.isArray(error.body?.fields) ? (error.body.fields as { field?: unknown; message?: unknown }[]) : [];
  const errors: Partial<Record<ProfileField | 'form', string>> = {};
  for (const item of fields) {
    const name = typeof item.field === 'string' ? item.field.split('.').at(-1) : undefined;
    const message = typeof item.message === 'string' ? item.message : 'Not valid';
    const field = PROFILE_FIELDS.find((candidate) => candidate === name);
    if (field) errors[field] ??= message;
    else errors.form ??= message;
  }
  if (Object.keys(errors).length === 0) errors.form = error.message;
  return errors;
}
