import { randomBytes } from 'node:crypto';
import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { readPackage } from './lib/package';
import { PasswordRequired } from './lib/package-password';
import { issuePackageGrant, linkVisitor } from './lib/package-grants';
import { matchesLinkKey } from './lib/transfer-links';
import { isExpired, readTransfer, TransferExpired, TransferNotFound } from './lib/transfer-access';

/**
 * Opens a link transfer for whoever holds its link: a package grant of the 'link' kind, for this
 * transfer alone. Nobody is signed in and no account is made; a visitor who is signed in stays
 * so, and votes as themselves. A key that does not match, or a transfer sent without a link, is
 * the same 404 as a transfer that does not exist; the expiry is told (410) only to a key that matches.
 */
export const handler = createHandler(transferRoutes.openTransferLink, async ({ params, body, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  const transfer = await readTransfer(db, params.id);
  if (!transfer || transfer.status !== 'sent' || !matchesLinkKey(transfer, body.key)) throw new TransferNotFound();
  if (isExpired(transfer, now)) throw new TransferExpired(transfer.availableUntil);
  const visitorId = randomBytes(16).toString('base64url');
  const grant = await issuePackageGrant(db, { kind: 'link', transferId: transfer.transferId, visitorId }, now);
  const answered = { expiresAt: grant.expiresAt };
  const visitor = linkVisitor(transfer.transferId, visitorId, caller);
  const view = await readPackage(db, transfer.transferId, visitor, now, cookies).catch((error: unknown) => {
    // The link opened: the grant is kept, and the package waits for its password.
    if (error instanceof PasswordRequired) return null;
    throw error;
  });
  if (!view) return reply({ passwordRequired: true as const, transferId: transfer.transferId, grant: answered }, { cookies: [grant.cookie] });
  return reply({ ...view, grant: answered }, { cookies: [grant.cookie] });
});
