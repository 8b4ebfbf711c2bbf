import * as storyRoutes from '../../shared/routes/stories';
import { checkedCursor } from '../lib/db/cursors';
import { EDITORIAL_QUEUE } from '../lib/db/entities/story';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { getStories, storiesFor } from './lib/story-relations';

const QUEUE_PAGE_SIZE = 20;

/** One Query of the queue's partition and two batch reads, whatever the queue's length. */
export const handler = createHandler(storyRoutes.listReviewQueue, async ({ query, caller }) => {
  const db = getDb();
  const queue = db.entities.storyReview.query.byQueue({ queue: EDITORIAL_QUEUE });
  const cursor = checkedCursor(query.cursor, queue, 'pk');
  const page = await queue.go({ order: 'asc', limit: QUEUE_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  const stories = await getStories(
    db,
    page.data.map((entry) => entry.storyId),
  );
  return { items: await storiesFor(db, stories, caller), nextCursor: page.cursor ?? null };
});
