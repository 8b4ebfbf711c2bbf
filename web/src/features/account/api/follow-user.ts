import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys, type PublicUser } from './account-keys';
import { track } from '../../../lib/analytics';

const followUserEndpoint = endpoint<typeof routes.followUser>('PUT', '/api/i/stories/user/{userId}/follow/{status}');

export function followUser({ userId, following }: { userId: string; following: boolean }) {
  return followUserEndpoint({ params: { userId, status: following ? 'on' : 'off' } });
}

/**
 * Follows or unfollows at once on screen (the button and the follower count); the server's
 * answer then replaces the guess, and a refusal puts back what was there.
 */
export function useFollowUser(profile: PublicUser) {
  const queryClient = useQueryClient();
  const stateKey = accountKeys.following(profile.userId);
  const profileKey = accountKeys.profile(profile.username);
  return useMutation({
    mutationKey: ['account', 'followUser'],
    mutationFn: followUser,
    onMutate: async ({ following }) => {
      await Promise.all([queryClient.cancelQueries({ queryKey: stateKey }), queryClient.cancelQueries({ queryKey: profileKey })]);
      const before = {
        state: queryClient.getQueryData<boolean>(stateKey),
        profile: queryClient.getQueryData<PublicUser>(profileKey),
      };
      queryClient.setQueryData(stateKey, following);
      queryClient.setQueryData<PublicUser>(profileKey, (user) =>
        user && before.state !== following
          ? { ...user, followerCount: Math.max(0, user.followerCount + (following ? 1 : -1)) }
          : user,
      );
      return before;
    },
    onError: (_error, _input, before) => {
      queryClient.setQueryData(stateKey, before?.state);
      queryClient.setQueryData(profileKey, before?.profile);
    },
    onSuccess: (state) => {
      track('User Followed', { following: state.following });
      queryClient.setQueryData(stateKey, state.following);
      queryClient.setQueryData<PublicUser>(profileKey, (user) =>
        user ? { ...user, followerCount: state.followerCount, followingCount: state.followingCount } : user,
      );
    },
  });
}
