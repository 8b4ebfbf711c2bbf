import type { PackageView, Vote } from '../../../shared/schemas/transfers';
import type { UserItem } from '../../lib/db/entities/user';
import type { Db } from '../../lib/db/service';
import { getUser } from '../../lib/db/users';
import { PreparedJson } from '../../lib/http/responses';
import { LruCache } from '../../lib/lru-cache';
import { type ManifestFile, readManifest } from './manifest';
import { readCurrentTally, type Tally } from './tally';
import { checkPackageAccess, type PackageCaller, readMembership, readTransfer, TransferNotFound } from './transfer-access';
import { readVotes } from './transfer-reads';
import { requirePackageUnlocked } from './package-password';
import { toPackageFile, toPerson, toTransferSummary } from './transfer-views';

/**
 * Senders as packages show them (name, username, picture), kept by a warm function for a minute:
 * the people who open a package in a burst see the same sender, and a renamed sender shows up
 * that much later. Who may see the package is decided on fresh reads every time.
 */
const SENDER_MAX_AGE_MS = 60_000;
const recentSenders = new LruCache<{ user: UserItem | null; readAt: number }>(500);

async function readSender(db: Db, userId: string, now: number): Promise<UserItem | null> {
  const recent = recentSenders.get(userId);
  if (recent && now - recent.readAt < SENDER_MAX_AGE_MS) return recent.user;
  const user = await getUser(db, { userId });
  recentSenders.set(userId, { user, readAt: now });
  return user;
}

interface PackageParts {
  transfer: PackageView['transfer'];
  files: ManifestFile[];
  tally: Tally;
  votes: Map<string, Vote>;
  isOwner: boolean;
}

/**
 * A sent package as the caller (its sender or a recipient) sees it: its files from the manifest,
 * their counts from the tally and the caller's own votes. One round of reads however many files
 * (the transfer, the caller's membership by the verified address their session carries, their
 * votes), then the sender, the manifest and the tally, which a warm function mostly has (the tally is
 * read again only when the transfer says a vote changed it); nothing read is answered before the
 * access check has passed on it.
 */
async function readPackageParts(
  db: Db,
  transferId: string,
  caller: PackageCaller,
  now: Date,
  cookies: Readonly<Record<string, string>>,
): Promise<PackageParts> {
  const [transfer, member, votes] = await Promise.all([
    readTransfer(db, transferId),
    readMembership(db, transferId, caller.verifiedEmail),
    caller.userId ? readVotes(db, transferId, caller.userId) : new Map<string, Vote>(),
  ]);
  const { isOwner } = checkPackageAccess(transfer, caller, member, now);
  if (!transfer) throw new TransferNotFound();
  await requirePackageUnlocked(db, transfer, caller, cookies, now);
  const [owner, files, tally] = await Promise.all([
    readSender(db, transfer.ownerId, now.getTime()),
    readManifest(db, transfer),
    readCurrentTally(db, transfer, now.getTime()),
  ]);
  if (!files) throw new TransferNotFound();
  return {
    transfer: toTransferSummary(transfer, toPerson(owner ?? undefined, transfer.ownerId), now),
    files,
    tally,
    votes,
    isOwner,
  };
}

const toPackageFiles = ({ files, tally, votes }: PackageParts) =>
  files.map((file) => toPackageFile(file, tally.counts.get(file.id), votes.get(file.id) ?? null));

/** `cookies`: the request's, for a password-protected package's unlock (package-password.ts). */
export async function readPackage(
  db: Db,
  transferId: string,
  caller: PackageCaller,
  now: Date,
  cookies: Readonly<Record<string, string>>,
): Promise<PackageView> {
  const parts = await readPackageParts(db, transferId, caller, now, cookies);
  return { transfer: parts.transfer, files: toPackageFiles(parts), isOwner: parts.isOwner };
}

/**
 * The files of a package as JSON for everyone who has not voted on it (most viewers, and its
 * sender), by its decoded manifest: kept while the tally it was made from is the current one, so
 * a package is serialised once per vote, not once per viewer.
 */
const unvotedFilesJson = new WeakMap<ManifestFile[], { tally: Tally; json: string }>();

function filesJson(parts: PackageParts): string {
  if (parts.votes.size > 0) return JSON.stringify(toPackageFiles(parts));
  const kept = unvotedFilesJson.get(parts.files);
  if (kept?.tally === parts.tally) return kept.json;
  const json = JSON.stringify(toPackageFiles(parts));
  unvotedFilesJson.set(parts.files, { tally: parts.tally, json });
  return json;
}

/**
 * readPackage, serialised: the summary (recipients may still be added) and the caller's flag are
 * written each time around the kept files part. A 1,000-file package is 370 KB of JSON; writing
 * it afresh for every viewer was most of the answer's CPU.
 */
export async function readPackageAnswer(
  db: Db,
  transferId: string,
  caller: PackageCaller,
  now: Date,
  cookies: Readonly<Record<string, string>>,
): Promise<PreparedJson<PackageView>> {
  const parts = await readPackageParts(db, transferId, caller, now, cookies);
  return new PreparedJson(
    `{"transfer":${JSON.stringify(parts.transfer)},"files":${filesJson(parts)},"isOwner":${parts.isOwner}}`,
  );
}
