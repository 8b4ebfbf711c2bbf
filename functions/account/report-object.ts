import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';

/**
 * Reports an object for moderation. One item per reporter and object: the first report creates
 * it, a repeat replaces its reason and details (one UpdateItem either way, so two concurrent
 * repeats cannot make two reports). The object is not looked up: stories, transfers and files
 * live in the sibling apps, so a report of an unknown id is kept for the moderators to judge.
 */
export const handler = createHandler(accountRoutes.reportObject, async ({ caller, body }) => {
  // Both ids are normalised (schema and session), so one comparison covers every letter case.
  if (body.objectType === 'user' && body.objectId === caller.userId) throw new BadRequest('You cannot report yourself.');
  const now = new Date().toISOString();
  const { data: previous } = await getDb()
    .entities.report.upsert({
      objectType: body.objectType,
      objectId: body.objectId,
      reporterId: caller.userId,
      reason: body.reason,
      details: body.details ?? '',
      updatedAt: now,
      // A new report re-opens what a moderator resolved: something may have changed since.
      status: 'open',
    })
    .ifNotExists({ createdAt: now })
    .go({ response: 'all_old' });
  return { reported: true as const, isNew: !previous || Object.keys(previous).length === 0 };
});
