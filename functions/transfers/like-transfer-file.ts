import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { castVote } from './lib/votes';

export const handler = createHandler(transferRoutes.likeTransferFile, async ({ params, caller }) => ({
  file: await castVote(getDb(), {
    transferId: params.id,
    fileId: params.relationId,
    caller,
    vote: 'like',
    status: params.status,
    now: new Date(),
  }),
}));
