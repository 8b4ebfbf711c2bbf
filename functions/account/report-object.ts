import * as accountRoutes from '../../shared/routes/account';
import type { REPORT_OBJECT_TYPES } from '../../shared/schemas/account';
import { type Db, getDb } from '../lib/db/service';
import { getUser, getUserByUsername } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { fileReport } from '../lib/reports';

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
 * Reports an object for moderation (one report per reporter and object, fileReport). The object
 * is not looked up: stories, transfers and files live in the sibling apps, so a report of an
 * unknown id is kept for the moderators to judge. Comments are reported through their own route,
 * which checks the comment, but a comment's report id (story id, dot, comment id) works here too.
 */
export const handler = createHandler(accountRoutes.reportObject, async ({ caller, body }) => {
  const db = getDb();
  const objectId = await canonicalObjectId(db, body.objectType, body.objectId);
  // Both ids are normalised (schema and session), so one comparison covers every letter case.
  if (body.objectType === 'user' && objectId === caller.userId) throw new BadRequest('You cannot report yourself.');
  const { isNew } = await fileReport(db, {
    objectType: body.objectType,
    objectId,
    reporterId: caller.userId,
    reason: body.reason,
    details: body.details,
  });
  return { reported: true as const, isNew };
});
