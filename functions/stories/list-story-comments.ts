import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listComments } from './lib/comments';

export const handler = createHandler(storyRoutes.listStoryComments, async ({ params, query, caller }) =>
  listComments(getDb(), {
    storyId: params.id,
    viewer: caller.kind === 'user' ? caller : undefined,
    cursor: query.cursor,
  }),
);
