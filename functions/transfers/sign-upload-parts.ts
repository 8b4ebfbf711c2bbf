import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { BadRequest, Conflict } from '../lib/errors';
import { presignPart } from '../lib/files/file-bucket';
import { createHandler } from '../lib/http/create-handler';
import { requireChangeableFile, UPLOAD_LINK_SECONDS } from './lib/stored-files';

export const handler = createHandler(transferRoutes.signUploadParts, async ({ params, body, caller }) => {
  const now = new Date();
  const { file } = await requireChangeableFile(getDb(), params.id, caller, now);
  if (file.status !== 'pending' || file.uploadMethod !== 'multipart' || !file.uploadId) {
    throw new Conflict('This file is not being uploaded in parts.');
  }
  const partCount = file.partCount ?? 0;
  const outside = body.partNumbers.filter((partNumber) => partNumber > partCount);
  if (outside.length > 0) throw new BadRequest(`This file has ${partCount} parts: there is no part ${outside[0]}.`);
  const uploadId = file.uploadId;
  const parts = await Promise.all(
    [...new Set(body.partNumbers)].map(async (partNumber) => ({
      partNumber,
      url: await presignPart({ key: file.objectKey, uploadId, partNumber, expiresInSeconds: UPLOAD_LINK_SECONDS }),
    })),
  );
  return { parts, expiresAt: new Date(now.getTime() + UPLOAD_LINK_SECONDS * 1000).toISOString() };
});
