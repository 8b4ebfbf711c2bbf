import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { createTransferFiles } from './lib/stored-files';

export const handler = createHandler(transferRoutes.createBRecord, async ({ body, caller }) => {
  const { transferId, ...declared } = body;
  const [uploading] = await createTransferFiles(getDb(), caller, transferId, [declared], new Date());
  return reply(uploading!, { status: 201 });
});
