import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PackageFile, Vote } from '../../../shared/schemas/transfers';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import type { Db } from '../../lib/db/service';
import { Forbidden, NotFound, Unauthorized } from '../../lib/errors';
import { readManifest } from './manifest';
import { type Counts, readTally, tallyUpdates } from './tally';
import { type PackageCaller, requirePackageAccess, TransferNotFound } from './transfer-access';
import { toPackageFile } from './transfer-views';
import { requirePackageUnlocked } from './package-password';

/** The vote a status asks for, given the current one: 'on' casts it (replacing the other), 'off' withdraws only that one. */
export function nextVote(current: Vote | null, vote: Vote, status: 'on' | 'off'): Vote | null {
  if (status === 'on') return vote;
  return current === vote ? null : current;
}

export const countDelta = (from: Vote | null, to: Vote | null): Counts => ({
  likes: (to === 'like' ? 1 : 0) - (from === 'like' ? 1 : 0),
  dislikes: (to === 'dislike' ? 1 : 0) - (from === 'dislike' ? 1 : 0),
});

export class FileNotInPackage extends NotFound {
  constructor() {
    super('There is no such file in this transfer.');
  }
}

/** Which items of a cancelled transaction failed their condition, by position. */
function failedPositions(error: unknown): number[] | null {
  if ((error as { name?: string }).name !== 'TransactionCanceledException') return null;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.flatMap((reason, index) => (reason?.Code === 'ConditionalCheckFailed' ? [index] : []));
}

/**
 * A recipient's like or dislike on one file of a package they received. The vote item, the
 * package's tally and the transfer's count of vote changes change in one transaction, on
 * condition that the vote is still what was read, so concurrent votes keep the counts equal to
 * the votes. Repeating a call changes nothing.
 */
export async function castVote(
  db: Db,
  options: {
    transferId: string;
    fileId: string;
    caller: PackageCaller;
    vote: Vote;
    status: 'on' | 'off';
    now: Date;
    /** The request's, for a password-protected package's unlock; without them such a package stays locked. */
    cookies?: Readonly<Record<string, string>>;
  },
): Promise<PackageFile> {
  const { transfer, isOwner } = await requirePackageAccess(db, options.transferId, options.caller, options.now);
  await requirePackageUnlocked(db, transfer, options.caller, options.cookies ?? {}, options.now);
  const { transferId, fileId } = options;
  const userId = options.caller.userId;
  const file = (await readManifest(db, transfer))?.find((candidate) => candidate.id === fileId);
  if (!file) throw new FileNotInPackage();
  if (isOwner) throw new Forbidden('Recipients vote on the files; the sender cannot.');
  // Anyone with a link transfer's link sees the counts; a vote is a person's, so it wants a login.
  if (userId === null)
    throw new Unauthorized('Log in to like or dislike files: anyone can download them, but votes are kept per person.');
  return retryContendedWrite({ what: 'voting on this file' }, async () => {
    const { data: stored } = await db.entities.transferVote.get({ transferId, userId, fileId }).go({ consistent: true });
    const current = stored?.vote ?? null;
    const next = nextVote(current, options.vote, options.status);
    if (next === current) {
      const tally = await readTally(db, transferId);
      return toPackageFile(file, tally.counts.get(fileId), current);
    }
    const votedAt = options.now.toISOString();
    // The vote's own write, as ElectroDB builds it (key, conditions), sent in our transaction with the tally's.
    type Params = Record<string, unknown>;
    const voteWrite =
      next === null
        ? {
            Delete: db.entities.transferVote
              .delete({ transferId, userId, fileId })
              .where(({ vote }, { eq }) => eq(vote, current ?? 'like'))
              .params<Params>(),
          }
        : current === null
          ? {
              Put: db.entities.transferVote
                .create({ transferId, userId, fileId, vote: next, votedAt, expiresAt: transfer.expiresAt })
                .params<Params>(),
            }
          : {
              Update: db.entities.transferVote
                .patch({ transferId, userId, fileId })
                .set({ vote: next, votedAt })
                .where(({ vote }, { eq }) => eq(vote, current))
                .params<Params>(),
            };
    try {
      await db.client.send(
        new TransactWriteCommand({
          TransactItems: [
            voteWrite,
            ...tallyUpdates(db, transferId, fileId, countDelta(current, next)),
          ] as TransactWriteCommandInput['TransactItems'],
        }),
      );
    } catch (error) {
      const failed = failedPositions(error);
      if (failed === null) throw error;
      // The package was deleted meanwhile.
      if (failed.includes(1) || failed.includes(2)) throw new TransferNotFound();
      // Another vote of the caller's (another tab) or a concurrent write: read again.
      return lostRace(error);
    }
    const tally = await readTally(db, transferId);
    return toPackageFile(file, tally.counts.get(fileId), next);
  });
}
