import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { signPartsOf } from './lib/upload-steps';

export const handler = createHandler(transferRoutes.signUploadParts, async ({ params, body, caller }) =>
  signPartsOf(getDb(), caller, params.id, body.partNumbers, new Date()),
);
