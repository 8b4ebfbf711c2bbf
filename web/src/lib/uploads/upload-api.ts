import { abortUpload } from './api/abort-upload';
import { finalizeBRecord } from './api/finalize-b-record';
import { listUploadedParts } from './api/list-uploaded-parts';
import { signUploadForm } from './api/sign-upload-form';
import { signUploadParts } from './api/sign-upload-parts';
import type { UploadApi } from './upload-client';

/** The files API as the upload client needs it, through the app's API modules (ApiError carries the status it retries by). */
export const uploadApi: UploadApi = {
  signForm: (fileId, signal) => signUploadForm(fileId, signal),
  signParts: (fileId, partNumbers, signal) => signUploadParts(fileId, partNumbers, signal),
  listParts: (fileId, signal) => listUploadedParts(fileId, signal),
  finalize: (fileId, signal) => finalizeBRecord(fileId, signal),
  abort: (fileId, signal) => abortUpload(fileId, signal),
};
