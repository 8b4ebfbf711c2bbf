import * as accountRoutes from '../../shared/routes/account';
import type { REPORT_OBJECT_TYPES } from '../../shared/schemas/account';
import { type Db, getDb } from '../lib/db/service';
import { getUser, getUserByUsername } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';

type ReportObjectType = (typeof REPORT_OBJECT_TYPES)[number];

/**
 * The one id an object is reported by, so that the same object named two ways is one report: a
 * user by id or by username is their user id; a publication's slug is lower case. Other objects'
 * ids are kept as given (their case matters), and an unknown user name is kept for moderators.
 */
async function canonicalObjectId(db: Db, objectType: ReportObjectType, objectId: string): Promise<string> {
  if (objectType === 'publication') return objectId.toLowerCase();
  if (objectType !== 'user' || (await getUser(db, { userId: objectId }))) return objectId;
  const byName = await getUserByUsername(db, { username: objectId.replace(/^@/, '') });
  return byName?.userId ?? objectId;
}

/**
 * Reports an object for moderation. One item per reporter and object: the first report creates
 * it, a repeat replaces its reason and details (one UpdateItem either way, so two concurrent
 * repeats cannot make two reports). The object is not looked up: stories, transfers and files
 * live in the sibling apps, so a report of an unknown id is kept for the moderators to judge.
 */
export const handler = createHandler(accountRoutes.reportObject, async ({ caller, body }) => {
  const db = getDb();
  const objectId = await canonicalObjectId(db, body.objectType, body.objectId);
  // Both ids are normalised (schema and session), so one comparison covers every letter case.
  if (body.objectType === 'user' && objectId === caller.userId) throw new BadRequest('You cannot report yourself.');
  const now = new Date().toISOString();
  const { data: previous } = await db.entities.report
    .upsert({
      objectType: body.objectType,
      objectId,
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
