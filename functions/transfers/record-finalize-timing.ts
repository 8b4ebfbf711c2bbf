import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { metrics } from '../lib/logger';
import { requireOwnTransfer } from './lib/transfer-access';
import { toPerson, toTransferSummary } from './lib/transfer-views';

/**
 * How long the send took as the sender waited for it. Kept once (the first report; a retried
 * report changes nothing) on the transfer, and as a metric for the dashboards.
 */
export const handler = createHandler(transferRoutes.recordFinalizeTiming, async ({ params, body, caller }) => {
  const db = getDb();
  const now = new Date();
  const transfer = await requireOwnTransfer(db, params.id, caller);
  if (transfer.status !== 'sent') throw new Conflict('This transfer is not sent yet.');
  let recorded = transfer;
  if (transfer.sendTimingMs === undefined) {
    try {
      await db.entities.transfer
        .patch({ transferId: transfer.transferId })
        .set({ sendTimingMs: body.elapsedMs })
        .where(({ sendTimingMs }, { notExists }) => notExists(sendTimingMs))
        .go();
      recorded = { ...transfer, sendTimingMs: body.elapsedMs };
      metrics.addMetric('TransferSendMilliseconds', 'Milliseconds', body.elapsedMs);
    } catch {
      // Another report got there first: answer what it recorded.
      recorded = (await db.entities.transfer.get({ transferId: transfer.transferId }).go({ consistent: true })).data ?? transfer;
    }
  }
  const owner = await getUser(db, { userId: caller.userId });
  return toTransferSummary(recorded, toPerson(owner ?? undefined, caller.userId), now);
});
