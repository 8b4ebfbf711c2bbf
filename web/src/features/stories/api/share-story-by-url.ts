import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storyKeys } from './story-keys';
import { track } from '../../../lib/analytics';

const shareStoryEndpoint = endpoint<typeof routes.shareStoryByUrl>('POST', '/api/i/stories/story/by/url');

/** Shares the page at `url`; answers the story and whether it had been shared already. */
export function shareStoryByUrl(url: string) {
  return shareStoryEndpoint({ body: { url } });
}

/** Shares, then reads the feeds again so the new story shows where the sharer looks. */
export function useShareStoryByUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['stories', 'share'],
    mutationFn: shareStoryByUrl,
    onSuccess: () => {
      track('Story Shared');
      return queryClient.invalidateQueries({ queryKey: storyKeys.all });
    },
  });
}
