import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const createFilesEndpoint = endpoint<typeof routes.createFiles>('POST', '/api/i/file/files');

/** At most this many files per call (the route's limit). */
export const CREATE_FILES_BATCH = 50;

export interface DeclaredFile {
  name: string;
  size: number;
  type: string;
  lastModified?: number;
}

/** Creates the records of up to 50 files of a draft at once, each answered with its upload target, in order. */
export function createFiles(transferId: string, files: readonly DeclaredFile[], signal?: AbortSignal) {
  return createFilesEndpoint({ body: { transferId, files: [...files] }, ...(signal ? { signal } : {}) });
}
