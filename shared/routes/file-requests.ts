import {
  createFileRequestBodySchema,
  fileRequestIdParamsSchema,
  fileRequestListQuerySchema,
  fileRequestListSchema,
  fileRequestSchema,
  publicFileRequestSchema,
  requestUploadFileParamsSchema,
  requestUploadSchema,
  startRequestUploadBodySchema,
} from '../schemas/file-requests';
import {
  createFilesBodySchema,
  fileAnswerSchema,
  signedPartsSchema,
  signPartsBodySchema,
  uploadedPartsSchema,
  uploadingFileSchema,
  uploadingFilesSchema,
} from '../schemas/transfers';
import * as z from '../zod';
import { defineRoute } from './define-route';

/**
 * File requests, served by functions/transfers/: a signed-in user's requests for files
 * (/api/i/transfer/requests), the page anyone with a request's link sees and the start of an
 * upload (/api/i/transfer/request/{id}), and the steps of one upload (/api/i/transfer/request-upload/{id}),
 * open to the holder of that upload's grant only.
 */

const NOT_YOURS = '404 for anyone else, as for a request that does not exist';
/** The upload routes answer the grant startRequestUpload set, and nothing else. */
const UPLOAD_GRANT =
  "For the holder of this upload's grant (the HttpOnly cookie startRequestUpload set, sent only to this upload's paths): 401 without it, 404 for a file of another upload, as for one that does not exist; 410 once the request is closed or expired";

export const createFileRequest = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/requests',
  access: 'user',
  handler: 'transfers/create-file-request',
  summary:
    "Creates a file request: a title, a message, an expiry in days (the plan's default when absent, 400 beyond the plan's longest) and optionally fewer uploads or bytes than the plan allows across the request. Its id, 128 random bits, is the link anyone may upload through. Answers 201 with it.",
  body: createFileRequestBodySchema,
  response: fileRequestSchema,
});

export const listFileRequests = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/requests',
  access: 'user',
  handler: 'transfers/list-file-requests',
  summary:
    "The caller's file requests, newest first, 50 a page (`cursor` for the next page), open, closed and expired ones, with how many uploads each received.",
  query: fileRequestListQuerySchema,
  response: fileRequestListSchema,
});

export const closeFileRequest = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/requests/{id}/close',
  access: 'user',
  handler: 'transfers/close-file-request',
  summary: `Closes the caller's file request: its link then answers 410, and uploads under way can add no more files nor finish. Closing a closed one answers it again. ${NOT_YOURS}.`,
  params: fileRequestIdParamsSchema,
  response: fileRequestSchema,
});

export const deleteFileRequest = defineRoute({
  method: 'DELETE',
  path: '/api/i/transfer/requests/{id}',
  access: 'user',
  handler: 'transfers/delete-file-request',
  summary: `Deletes the caller's file request: its link then answers 404. The transfers already uploaded through it stay the caller's (delete them as any transfer). ${NOT_YOURS}.`,
  params: fileRequestIdParamsSchema,
  response: fileRequestSchema,
});

export const showFileRequest = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/request/{id}/v',
  access: 'public',
  handler: 'transfers/show-file-request',
  summary:
    'A file request as anyone with its link sees it: its title and message, who asks, until when, and how many bytes an upload may hold. 404 for an unknown or deleted request; 410 saying so once it is closed, expired or full.',
  params: fileRequestIdParamsSchema,
  response: publicFileRequestSchema,
});

export const startRequestUpload = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/request/{id}/uploads',
  access: 'public',
  handler: 'transfers/start-request-upload',
  summary:
    "Starts an upload through a file request, no account needed: the uploader's name (required) and a note. The upload is a draft transfer of the requester's, within the requester's plan. Answers 201 with it and its upload grant, an HttpOnly cookie that opens this upload's steps and nothing else. 404 for an unknown request; 410 once it is closed, expired or has taken all the uploads it allows; 429 past 10 uploads an hour from one network.",
  params: fileRequestIdParamsSchema,
  body: startRequestUploadBodySchema,
  response: requestUploadSchema,
});

export const getRequestUpload = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/request-upload/{id}/v',
  access: 'public',
  handler: 'transfers/get-request-upload',
  summary: `An upload as its uploader sees it: the request's title, their name and note, and their own files. ${UPLOAD_GRANT} (this read still answers then).`,
  params: fileRequestIdParamsSchema,
  response: requestUploadSchema,
});

export const createRequestUploadFiles = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/request-upload/{id}/files',
  access: 'public',
  handler: 'transfers/create-request-upload-files',
  summary: `Adds up to 50 files to an upload, each answered with its upload target, as createFiles does for a sender (the same types, the requester's plan's size per upload), within the bytes the request has left (400 beyond). ${UPLOAD_GRANT}; 409 once the upload is finished.`,
  params: fileRequestIdParamsSchema,
  body: z.strictObject({ files: createFilesBodySchema.shape.files }),
  response: uploadingFilesSchema,
  capabilities: { bucket: 'write' },
});

export const signRequestUploadForm = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/request-upload/{id}/file/{fileId}/form',
  access: 'public',
  handler: 'transfers/sign-request-upload-form',
  summary: `A new presigned POST for a pending single-upload file of the upload, as signUploadForm. ${UPLOAD_GRANT}.`,
  params: requestUploadFileParamsSchema,
  response: uploadingFileSchema,
  capabilities: { bucket: 'write' },
});

export const signRequestUploadParts = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/request-upload/{id}/file/{fileId}/parts',
  access: 'public',
  handler: 'transfers/sign-request-upload-parts',
  summary: `Presigned PUT urls for parts of a pending multipart file of the upload, as signUploadParts. ${UPLOAD_GRANT}.`,
  params: requestUploadFileParamsSchema,
  body: signPartsBodySchema,
  response: signedPartsSchema,
  capabilities: { bucket: 'write' },
});

export const listRequestUploadParts = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/request-upload/{id}/file/{fileId}/parts',
  access: 'public',
  handler: 'transfers/list-request-upload-parts',
  summary: `The parts S3 already holds of a pending multipart file of the upload, as listUploadedParts. ${UPLOAD_GRANT}.`,
  params: requestUploadFileParamsSchema,
  response: uploadedPartsSchema,
  capabilities: { bucket: 'read' },
});

export const abortRequestUploadFile = defineRoute({
  method: 'DELETE',
  path: '/api/i/transfer/request-upload/{id}/file/{fileId}',
  access: 'public',
  handler: 'transfers/abort-request-upload-file',
  summary: `Removes a file of the upload, pending or uploaded, while the upload is not finished; its bytes go back to the request. ${UPLOAD_GRANT}.`,
  params: requestUploadFileParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const finalizeRequestUploadFile = defineRoute({
  method: 'PUT',
  path: '/api/i/transfer/request-upload/{id}/file/{fileId}/finalize',
  access: 'public',
  handler: 'transfers/finalize-request-upload-file',
  summary: `Checks what S3 holds for a pending file of the upload and makes it ready, as finalizeBRecord does (the same checks and answers). ${UPLOAD_GRANT}.`,
  params: requestUploadFileParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const finishRequestUpload = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/request-upload/{id}/finish',
  access: 'public',
  handler: 'transfers/finish-request-upload',
  summary: `Finishes an upload: it needs a file and every file ready (409 naming the others). The upload becomes a sent transfer in the requester's transfers, marked as received through the request with the uploader's name and note, and the requester is notified and emailed. Finishing again answers it again. ${UPLOAD_GRANT}.`,
  params: fileRequestIdParamsSchema,
  response: requestUploadSchema,
  capabilities: { email: true, realtime: true },
});

/** The group in listing order: a new route goes at the end (see transfers.ts). */
export const allFileRequestRoutes = {
  createFileRequest,
  listFileRequests,
  closeFileRequest,
  deleteFileRequest,
  showFileRequest,
  startRequestUpload,
  getRequestUpload,
  createRequestUploadFiles,
  signRequestUploadForm,
  signRequestUploadParts,
  listRequestUploadParts,
  abortRequestUploadFile,
  finalizeRequestUploadFile,
  finishRequestUpload,
};
