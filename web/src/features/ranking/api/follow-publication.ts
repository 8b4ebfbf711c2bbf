import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { routes } from '@shared/routes';
import type { FollowedPublication } from '@shared/schemas/ranking';
import { endpoint } from '../../../lib/api-client';
import { followedPublicationsKey } from './list-followed-publications';

const followEndpoint = endpoint<typeof routes.followPublication>('PUT', '/api/i/toppubs/pub/{slug}/follow/{status}');

export function followPublication({ slug, following }: { slug: string; following: boolean }) {
  return followEndpoint({ params: { slug, status: following ? 'on' : 'off' } });
}

type FollowedList = { items: FollowedPublication[]; generatedAt: string };

/**
 * Follows or unfollows at once on screen (every button of that publication, and the Following
 * list); the server's list then replaces the guess, and a refusal puts back what was there.
 */
export function useFollowPublication(userId: string) {
  const queryClient = useQueryClient();
  const key = followedPublicationsKey(userId);
  return useMutation({
    mutationKey: ['ranking', 'followPublication'],
    mutationFn: ({
      slug,
      following,
    }: {
      slug: string;
      following: boolean;
      publication: Omit<FollowedPublication, 'followedAt'>;
    }) => followPublication({ slug, following }),
    onMutate: async ({ slug, following, publication }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<FollowedList>(key);
      queryClient.setQueryData<FollowedList>(key, (list) => {
        const items = (list?.items ?? []).filter((item) => item.slug !== slug);
        return {
          generatedAt: list?.generatedAt ?? new Date().toISOString(),
          items: following ? [{ ...publication, followedAt: new Date().toISOString() }, ...items] : items,
        };
      });
      return { before };
    },
    onError: (_error, _input, context) => {
      queryClient.setQueryData(key, context?.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
