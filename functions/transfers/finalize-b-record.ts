import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { finalizeUploadOf } from './lib/upload-steps';

export const handler = createHandler(transferRoutes.finalizeBRecord, async ({ params, caller }) =>
  finalizeUploadOf(getDb(), caller, params.id, new Date()),
);
