import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { signFormOf } from './lib/upload-steps';

export const handler = createHandler(transferRoutes.signUploadForm, async ({ params, caller }) =>
  signFormOf(getDb(), caller, params.id, new Date()),
);
