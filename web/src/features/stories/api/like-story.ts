import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type Story, type StoryPage, storyKeys } from './story-keys';
import { track } from '../../../lib/analytics';

const likeStoryEndpoint = endpoint<typeof routes.likeStory>('PUT', '/api/i/stories/story/{id}/like/{status}');

export function likeStory({ id, liked }: { id: string; liked: boolean }) {
  return likeStoryEndpoint({ params: { id, status: liked ? 'on' : 'off' } });
}

/**
 * Puts `change` on every cached copy of the story: in every feed, a person's stories and the
 * review queue (every list under the stories' key is a paged list of stories), and its own page.
 */
export function updateCachedStory(queryClient: QueryClient, id: string, change: (story: Story) => Story): void {
  queryClient.setQueriesData<{ story: Story }>({ queryKey: storyKeys.stories(id) }, (data) =>
    data ? { story: change(data.story) } : data,
  );
  queryClient.setQueriesData<InfiniteData<StoryPage>>({ queryKey: storyKeys.all }, (data) =>
    data?.pages
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((story) => (story.id === id ? change(story) : story)),
          })),
        }
      : data,
  );
}

/**
 * Likes or unlikes at once on screen; the server's answer then replaces the guess, and a
 * refusal puts back what was there.
 */
export function useLikeStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['stories', 'like'],
    mutationFn: likeStory,
    onMutate: async ({ id, liked }) => {
      await Promise.all([
        queryClient.cancelQueries({ queryKey: storyKeys.all }),
        queryClient.cancelQueries({ queryKey: storyKeys.stories(id) }),
      ]);
      const before = [
        ...queryClient.getQueriesData<unknown>({ queryKey: storyKeys.all }),
        ...queryClient.getQueriesData<unknown>({ queryKey: storyKeys.stories(id) }),
      ];
      updateCachedStory(queryClient, id, (story) => ({
        ...story,
        likeCount: Math.max(0, story.likeCount + (liked === story.currentUserRelation.didUpvote ? 0 : liked ? 1 : -1)),
        currentUserRelation: { ...story.currentUserRelation, didUpvote: liked },
      }));
      return { before };
    },
    onError: (_error, _input, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
    },
    onSuccess: ({ story }, { liked }) => {
      track('Story Liked', { liked });
      updateCachedStory(queryClient, story.id, () => story);
    },
  });
}
