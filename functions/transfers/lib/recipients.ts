import type { Db } from '../../lib/db/service';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';
import { getUserByEmail } from '../../lib/db/users';
import { BadRequest } from '../../lib/errors';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { withCurrentPlanLimits } from './plan';

/**
 * Adds one recipient, once: the member, the transfer's count (on condition it stays within the
 * plan's limit) and the sender's contact are written in one transaction. A recipient added to a
 * sent transfer is also put in the recipient's list at once. Answers the member and whether it
 * is new.
 */
export async function addMember(
  db: Db,
  transfer: TransferItem,
  email: string,
  now: Date,
): Promise<{ member: TransferMemberItem; added: boolean }> {
  const transferId = transfer.transferId;
  const at = now.toISOString();
  return retryContendedWrite({ what: 'adding recipients to this transfer' }, async () => {
    const { data: existing } = await db.entities.transferMember.get({ transferId, email }).go({ consistent: true });
    if (existing) return { member: existing, added: false };
    const { data: stored } = await db.entities.transfer.get({ transferId }).go({ consistent: true });
    if (!stored) throw new BadRequest('This transfer was deleted.');
    const current = stored.recipientCount >= stored.maxRecipients ? await withCurrentPlanLimits(db, stored, now) : stored;
    if (current.recipientCount >= current.maxRecipients) {
      throw new BadRequest(`A transfer on the ${current.planId} plan goes to at most ${current.maxRecipients} recipients.`, {
        maxRecipients: current.maxRecipients,
      });
    }
    const user = await getUserByEmail(db, { email });
    const member: TransferMemberItem = {
      transferId,
      email,
      ...(user ? { userId: user.userId } : {}),
      addedAt: at,
      downloads: [],
      expiresAt: current.expiresAt,
    };
    const result = await db.transaction
      .write(({ transferMember, transfer: transfers, transferContact, receivedTransfer }) => [
        transferMember.create(member).commit(),
        transfers
          .patch({ transferId })
          .add({ recipientCount: 1 })
          .where(
            ({ recipientCount, status }, { eq }) =>
              `${eq(recipientCount, current.recipientCount)} AND ${eq(status, current.status)}`,
          )
          .commit(),
        transferContact
          .put({ ownerId: current.ownerId, email, ...(user?.name ? { name: user.name } : {}), lastSentAt: at })
          .commit(),
        ...(current.status === 'sent' && current.finalizedAt
          ? [receivedTransfer.put({ email, transferId, sentAt: current.finalizedAt, expiresAt: current.expiresAt }).commit()]
          : []),
      ])
      .go();
    if (!result.canceled) return { member, added: true };
    // Added meanwhile by another call (the next attempt answers that one), or the transfer changed
    // meanwhile (its count or status), or the transaction only collided with another: read again.
    return lostRace(result);
  });
}
