import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { uploadedPartsOf } from './lib/upload-steps';

export const handler = createHandler(transferRoutes.listUploadedParts, async ({ params, caller }) =>
  uploadedPartsOf(getDb(), caller, params.id),
);
