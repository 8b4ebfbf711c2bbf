import * as transferRoutes from '../../shared/routes/transfers';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { clientAddress } from '../lib/http/client-address';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { resolvePackageCaller } from './lib/package-grants';
import { unlockPackage } from './lib/package-password';
import { requirePackageAccess } from './lib/transfer-access';

const config = getConfig();

/**
 * A recipient enters a protected package's password. Who may try is decided first, as for the
 * package itself (a stranger learns nothing, not even that a password exists); an unprotected
 * package, or its sender, needs no password and is answered as unlocked.
 */
export const handler = createHandler(transferRoutes.unlockTransferPackage, async ({ params, body, caller, cookies, event }) => {
  const db = getDb();
  const now = new Date();
  const opener = await resolvePackageCaller(db, { transferId: params.id, caller, cookies, now });
  const { transfer, isOwner } = await requirePackageAccess(db, params.id, opener, now);
  if (!transfer.passwordHash || isOwner) return { unlockedUntil: transfer.availableUntil };
  const sourceIp = clientAddress(event, config.edgeOriginToken);
  const unlocked = await unlockPackage(db, { transfer, password: body.password, sourceIp, now });
  return reply({ unlockedUntil: unlocked.unlockedUntil }, { cookies: [unlocked.cookie] });
});
