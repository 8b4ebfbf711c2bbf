import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { Forbidden } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { mergeSettings } from './lib/profile';

export const handler = createHandler(accountRoutes.upsertSettings, async ({ params, body, caller }) => {
  // 'me' is the caller, so the web app need not know its own id to save settings.
  const userId = params.id === 'me' ? caller.userId : params.id;
  // Refused before any read, so a non-superuser learns nothing about whether the id exists.
  if (userId !== caller.userId && !caller.isSuperUser) throw new Forbidden('You can only change your own settings.');
  return { settings: await mergeSettings(getDb(), userId, body) };
});
