import type { PackageFile, Vote } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import { failedConditions } from '../../lib/db/errors';
import { Forbidden, NotFound } from '../../lib/errors';
import type { UserCaller } from '../../lib/http/caller';
import { CONTENDED_WRITE_ATTEMPTS, pauseBeforeRetry, TooBusy } from '../../lib/contended-writes';
import { requirePackageAccess } from './transfer-access';
import { toPackageFile } from './transfer-views';

/** The vote a status asks for, given the current one: 'on' casts it (replacing the other), 'off' withdraws only that one. */
export function nextVote(current: Vote | null, vote: Vote, status: 'on' | 'off'): Vote | null {
  if (status === 'on') return vote;
  return current === vote ? null : current;
}

const countDelta = (from: Vote | null, to: Vote | null) => ({
  likes: (to === 'like' ? 1 : 0) - (from === 'like' ? 1 : 0),
  dislikes: (to === 'dislike' ? 1 : 0) - (from === 'dislike' ? 1 : 0),
});

/**
 * A recipient's like or dislike on one ready file of a package they received. The vote item and
 * the file's counts change in one transaction, on condition that the vote is still what was
 * read, so concurrent votes keep the counts equal to the votes. Repeating a call changes nothing.
 */
export async function castVote(
  db: Db,
  options: { transferId: string; fileId: string; caller: UserCaller; vote: Vote; status: 'on' | 'off'; now: Date },
): Promise<PackageFile> {
  const { transfer, isOwner } = await requirePackageAccess(db, options.transferId, options.caller, options.now);
  const { transferId, fileId } = options;
  const userId = options.caller.userId;
  for (let attempt = 0; attempt < CONTENDED_WRITE_ATTEMPTS; attempt += 1) {
    if (attempt > 0) await pauseBeforeRetry(attempt);
    const [{ data: file }, { data: stored }] = await Promise.all([
      db.entities.storedFile.get({ fileId }).go({ consistent: true }),
      db.entities.transferVote.get({ transferId, userId, fileId }).go({ consistent: true }),
    ]);
    if (!file || file.transferId !== transferId || file.status !== 'ready')
      throw new NotFound('There is no such file in this transfer.');
    if (isOwner) throw new Forbidden('Recipients vote on the files; the sender cannot.');
    const current = stored?.vote ?? null;
    const next = nextVote(current, options.vote, options.status);
    if (next === current) return toPackageFile(file, current);
    const delta = countDelta(current, next);
    const result = await db.transaction
      .write(({ transferVote, storedFile }) => [
        next === null
          ? transferVote
              .delete({ transferId, userId, fileId })
              .where(({ vote }, { eq }) => eq(vote, current ?? 'like'))
              .commit()
          : current === null
            ? transferVote
                .create({
                  transferId,
                  userId,
                  fileId,
                  vote: next,
                  votedAt: options.now.toISOString(),
                  expiresAt: transfer.expiresAt,
                })
                .commit()
            : transferVote
                .patch({ transferId, userId, fileId })
                .set({ vote: next, votedAt: options.now.toISOString() })
                .where(({ vote }, { eq }) => eq(vote, current))
                .commit(),
        storedFile.patch({ fileId }).add(delta).commit(),
      ])
      .go();
    if (!result.canceled) {
      return toPackageFile({ ...file, likes: file.likes + delta.likes, dislikes: file.dislikes + delta.dislikes }, next);
    }
    // Another vote of the caller's (another tab) or a deleted file: read again.
    if (failedConditions(result).includes(1)) throw new NotFound('There is no such file in this transfer.');
  }
  throw new TooBusy('voting on this file');
}
