import { abortRequestUploadFile } from '../api/abort-request-upload-file';
import { finalizeRequestUploadFile } from '../api/finalize-request-upload-file';
import { listRequestUploadParts } from '../api/list-request-upload-parts';
import { signRequestUploadForm } from '../api/sign-request-upload-form';
import { signRequestUploadParts } from '../api/sign-request-upload-parts';
import type { UploadApi } from '../../../lib/uploads/upload-client';

/** The upload client's API for one upload through a file request: the same steps, on that upload's routes (its grant opens them). */
export function requestUploadApi(uploadId: string): UploadApi {
  return {
    signForm: (fileId, signal) => signRequestUploadForm(uploadId, fileId, signal),
    signParts: (fileId, partNumbers, signal) => signRequestUploadParts(uploadId, fileId, partNumbers, signal),
    listParts: (fileId, signal) => listRequestUploadParts(uploadId, fileId, signal),
    finalize: (fileId, signal) => finalizeRequestUploadFile(uploadId, fileId, signal),
    abort: (fileId, signal) => abortRequestUploadFile(uploadId, fileId, signal),
  };
}
