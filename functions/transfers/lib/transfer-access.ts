import type { UserCaller } from '../../lib/http/caller';
import type { Db } from '../../lib/db/service';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';
import { Conflict, Gone, NotFound } from '../../lib/errors';

/**
 * Who may see a transfer. Its sender; and, once it is sent, whoever is signed in with a verified
 * address it was sent to. Anyone else is told it does not exist (404), the same answer as for an
 * id that names nothing, so guessing ids confirms nothing.
 */
export class TransferNotFound extends NotFound {
  constructor() {
    super('There is no such transfer, or it was not sent to you.');
  }
}

export class TransferExpired extends Gone {
  constructor(availableUntil: string) {
    super(`This transfer expired on ${availableUntil.slice(0, 10)} and its files were deleted.`, { expiredAt: availableUntil });
  }
}

export class TransferAlreadySent extends Conflict {
  constructor() {
    super('This transfer was already sent: it cannot change any more.');
  }
}

/**
 * A draft made by starting an upload through one of the owner's file requests is the owner's, but
 * its uploader fills it: the owner's sender routes leave it alone until the upload is finished,
 * so a recipient, a password or a send cannot slip in under the uploader's files.
 */
export class RequestUploadInProgress extends Conflict {
  constructor() {
    super('This transfer is being uploaded through your file request: wait for the uploader to finish.');
  }
}

/**
 * Who changes a transfer: its owner signed in, or a file request's upload grant acting for the
 * owner on that one upload (`throughUpload` names its transfer; only lib/upload-grants.ts sets it).
 */
export interface TransferActor {
  userId: string;
  throughUpload?: string;
}

/** Refuses the owner's own routes on a draft that an upload through a file request is filling (409). */
export function refuseUploadInProgress(
  transfer: Pick<TransferItem, 'transferId' | 'status' | 'requestId'>,
  actor: TransferActor,
) {
  if (transfer.status === 'draft' && transfer.requestId && actor.throughUpload !== transfer.transferId) {
    throw new RequestUploadInProgress();
  }
}

/** TTL deletes late: the date itself decides. */
export const isExpired = (transfer: Pick<TransferItem, 'availableUntil'>, now: Date) =>
  Date.parse(transfer.availableUntil) <= now.getTime();

export async function readTransfer(db: Db, transferId: string): Promise<TransferItem | null> {
  const { data } = await db.entities.transfer.get({ transferId }).go();
  return data;
}

/** The caller's own transfer (expired or not), or 404. */
export async function requireOwnTransfer(db: Db, transferId: string, caller: Pick<UserCaller, 'userId'>): Promise<TransferItem> {
  const transfer = await readTransfer(db, transferId);
  if (!transfer || transfer.ownerId !== caller.userId) throw new TransferNotFound();
  return transfer;
}

/**
 * The caller's own draft, not expired: the only kind that may still grow. A draft an upload
 * through the caller's file request is filling is that upload's alone (409 to the owner's routes).
 */
export async function requireOwnDraft(db: Db, transferId: string, caller: TransferActor, now: Date): Promise<TransferItem> {
  const transfer = await requireOwnTransfer(db, transferId, caller);
  if (isExpired(transfer, now)) throw new TransferExpired(transfer.availableUntil);
  if (transfer.status !== 'draft') throw new TransferAlreadySent();
  refuseUploadInProgress(transfer, caller);
  return transfer;
}

/**
 * Someone holding a package grant (functions/transfers/lib/package-grants.ts): the recipient an
 * emailed link was for, for that one transfer only. Not a signed-in user: no session, no account.
 */
export interface PackageGrantCaller {
  kind: 'package-grant';
  transferId: string;
  userId: string;
  /** The address the link was sent to (the link proved it). */
  verifiedEmail: string;
}

/**
 * Someone who opened a link transfer's link (its link grant), for that one transfer only. Signed
 * in, they vote and are named in the sender's download log as themselves; else they are
 * anonymous: they look and download, and no session or account is made for them.
 */
export interface LinkVisitorCaller {
  kind: 'link-visitor';
  transferId: string;
  /** The signed-in user's, or null for an anonymous visitor. */
  userId: string | null;
  verifiedEmail: string | null;
  /** Tells this visitor's downloads apart from others' (the grant's own id, or the user's). */
  visitorId: string;
}

/** Who may open a package: a signed-in user, or a grant for that very transfer. */
export type PackageCaller = UserCaller | PackageGrantCaller | LinkVisitorCaller;

export interface PackageAccess {
  transfer: TransferItem;
  isOwner: boolean;
  /** The caller as a recipient; null for the sender, and for anyone who came by the link alone. */
  member: TransferMemberItem | null;
}

/** Whether the transfer is a sent link transfer whose link still opens it. */
const opensByLink = (transfer: TransferItem) => transfer.status === 'sent' && Boolean(transfer.linkKeyHash);

/**
 * Whether the caller may open a package, from what was read: a sent transfer, not expired, that
 * is theirs or was sent to their verified address (a grant's address, for that grant's
 * transfer), or a link transfer whose link they opened. 404 otherwise (410 with the date for an
 * expired one they could see).
 */
export function checkPackageAccess(
  transfer: TransferItem | null,
  caller: PackageCaller,
  member: TransferMemberItem | null,
  now: Date,
): PackageAccess {
  if (!transfer) throw new TransferNotFound();
  // A grant opens its own transfer only, and as a recipient: never as the sender.
  if (caller.kind !== 'user' && caller.transferId !== transfer.transferId) throw new TransferNotFound();
  const isOwner = caller.kind !== 'package-grant' && caller.userId !== null && transfer.ownerId === caller.userId;
  const byLink = caller.kind === 'link-visitor' && opensByLink(transfer);
  if (!isOwner && (transfer.status !== 'sent' || (!member && !byLink))) throw new TransferNotFound();
  if (isExpired(transfer, now)) throw new TransferExpired(transfer.availableUntil);
  if (isOwner && transfer.status !== 'sent')
    throw new Conflict('This transfer is not sent yet: its package opens once you send it.');
  return { transfer, isOwner, member: isOwner ? null : member };
}

/** The caller's membership of a transfer, by their verified address; null when they have none. */
export async function readMembership(db: Db, transferId: string, email: string | null): Promise<TransferMemberItem | null> {
  if (!email) return null;
  const { data } = await db.entities.transferMember.get({ transferId, email }).go();
  return data;
}

/** A sent transfer the caller may open (its sender or a recipient), not expired: else 404, or 410 with the date. */
export async function requirePackageAccess(db: Db, transferId: string, caller: PackageCaller, now: Date): Promise<PackageAccess> {
  const [transfer, member] = await Promise.all([
    readTransfer(db, transferId),
    readMembership(db, transferId, caller.verifiedEmail),
  ]);
  return checkPackageAccess(transfer, caller, member, now);
}
