import * as transferRoutes from '../../shared/routes/transfers';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { fetchImage } from './lib/image-intake';
import { storeImage } from './lib/images';

const config = getConfig();

export const handler = createHandler(transferRoutes.uploadImageByUrl, async ({ body, caller }) => {
  const bytes = await fetchImage(body.url, { allowPrivateAddresses: config.fetchPrivateAddresses });
  const name = decodeURIComponent(new URL(body.url).pathname.split('/').pop() ?? '') || undefined;
  return reply(await storeImage(getDb(), caller, bytes, name, new Date()), { status: 201 });
});
