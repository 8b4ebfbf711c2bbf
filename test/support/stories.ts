import { getDb } from '../../functions/lib/db/service';
import { newStoryId } from '../../functions/stories/lib/share-story';
import { siteWrites } from '../../functions/stories/lib/site-stories';

/**
 * A story in the table as sharing would leave it (with its site's index item and count), for
 * tests about what happens to stories afterwards (sharing itself, with its page fetch, is
 * tested in stories-api). `url` is where it is from; `likeCount` what readers made of it.
 */
export async function storyInTable(
  sharer: { userId: string },
  title: string,
  createdAt = new Date(),
  options: { url?: string; likeCount?: number } = {},
): Promise<string> {
  const storyId = newStoryId();
  const url = options.url ?? `https://blog.example.com/${storyId}`;
  const story = {
    storyId,
    url,
    canonicalUrl: url,
    title,
    source: 'page' as const,
    sharerId: sharer.userId,
    likeCount: options.likeCount ?? 0,
    createdAt: createdAt.toISOString(),
  };
  const result = await getDb()
    .transaction.write((entities) => [entities.story.create(story).commit(), ...siteWrites(entities, story)])
    .go();
  if (result.canceled) throw new Error(`Could not write the story '${title}'`, { cause: result });
  return storyId;
}
