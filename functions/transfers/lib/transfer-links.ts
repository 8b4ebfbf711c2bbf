import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../lib/app-auth';
import { getConfig } from '../../lib/config';
import type { TransferItem } from '../../lib/db/entities/transfer';

/**
 * A link transfer's link: the package page's address with a random key (256 bits) in its
 * fragment, which browsers never send to a server, so it stays out of access logs and Referer
 * headers. Only the key's SHA-256 is kept on the transfer: the sender is shown the link once,
 * when the transfer is sent, and deleting the transfer is what revokes it.
 */
export function newLinkKey(): { key: string; hash: string } {
  const key = randomBytes(32).toString('base64url');
  return { key, hash: hashToken(key) };
}

export const transferLinkUrl = (transferId: string, key: string) =>
  `${getConfig().webOrigin}/transfer/${encodeURIComponent(transferId)}/package#key=${key}`;

/** Whether `key` is this transfer's link key (compared in constant time); false for a transfer sent without a link. */
export function matchesLinkKey(transfer: Pick<TransferItem, 'linkKeyHash'>, key: string): boolean {
  if (!transfer.linkKeyHash || !key || key.length > 200) return false;
  const given = Buffer.from(hashToken(key), 'hex');
  const kept = Buffer.from(transfer.linkKeyHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}
