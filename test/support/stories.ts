import { getDb } from '../../functions/lib/db/service';
import { newStoryId } from '../../functions/stories/lib/share-story';

/**
 * A story in the table as sharing would leave it, for tests about what happens to stories
 * afterwards (sharing itself, with its page fetch, is tested in stories-api).
 */
export async function storyInTable(sharer: { userId: string }, title: string, createdAt = new Date()): Promise<string> {
  const storyId = newStoryId();
  await getDb()
    .entities.story.create({
      storyId,
      url: `https://blog.example.com/${storyId}`,
      canonicalUrl: `https://blog.example.com/${storyId}`,
      title,
      source: 'page',
      sharerId: sharer.userId,
      createdAt: createdAt.toISOString(),
    })
    .go();
  return storyId;
}
