import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { DeclaredFile } from './create-files';

const createRequestUploadFilesEndpoint = endpoint<typeof routes.createRequestUploadFiles>(
  'POST',
  '/api/i/transfer/request-upload/{id}/files',
);

/** Creates up to 50 files of an upload, each answered with its upload target, in order. */
export function createRequestUploadFiles(uploadId: string, files: readonly DeclaredFile[], signal?: AbortSignal) {
  return createRequestUploadFilesEndpoint({
    params: { id: uploadId },
    body: { files: [...files] },
    ...(signal ? { signal } : {}),
  });
}
