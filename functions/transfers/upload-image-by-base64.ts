import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { decodeBase64Image } from './lib/image-intake';
import { storeImage } from './lib/images';

export const handler = createHandler(transferRoutes.uploadImageByBase64, async ({ body, caller }) =>
  reply(await storeImage(getDb(), caller, decodeBase64Image(body.dataBase64), body.name, new Date()), { status: 201 }),
);
