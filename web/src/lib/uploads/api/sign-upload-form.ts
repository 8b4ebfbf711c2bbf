import { endpoint } from '../../api-client';
import type { routes } from '@shared/routes';

const signFormEndpoint = endpoint<typeof routes.signUploadForm>('POST', '/api/i/file/file/{id}/mod/upload/form');

/** A new presigned POST for a pending single-upload file, when the one it was created with ran out. */
export function signUploadForm(fileId: string, signal?: AbortSignal) {
  return signFormEndpoint({ params: { id: fileId }, ...(signal ? { signal } : {}) });
}
