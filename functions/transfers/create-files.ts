import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { createTransferFiles } from './lib/stored-files';

export const handler = createHandler(transferRoutes.createFiles, async ({ body, caller }) =>
  reply({ files: await createTransferFiles(getDb(), caller, body.transferId, body.files, new Date()) }, { status: 201 }),
);
