import {
  base64ImageBodySchema,
  createBRecordBodySchema,
  createFilesBodySchema,
  downloadLinkSchema,
  downloadQuerySchema,
  fileAnswerSchema,
  fileIdParamsSchema,
  imageFileBodySchema,
  imageUrlBodySchema,
  signedPartsSchema,
  signPartsBodySchema,
  storedImageSchema,
  uploadedPartsSchema,
  uploadingFileSchema,
  uploadingFilesSchema,
} from '../schemas/files';
import { defineRoute } from './define-route';

/** Reading a page by url waits on someone else's server. */
const IMAGE_FETCH_TIMEOUT_SECONDS = 20;

export const getFile = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/v',
  access: 'public',
  handler: 'transfers/get-file',
  summary:
    "A file's record. Images (avatars, product images) are public; a transfer's file only for its sender and the transfer's recipients: 404 for anyone else, as for a file that does not exist.",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
});

export const createFiles = defineRoute({
  method: 'POST',
  path: '/api/i/file/files',
  access: 'user',
  handler: 'transfers/create-files',
  summary:
    "Creates several files of the caller's draft transfer at once (at most 50 per call), each as createBRecord does, and answers each with its upload target. All or nothing: one refused file refuses the call.",
  body: createFilesBodySchema,
  response: uploadingFilesSchema,
  capabilities: { bucket: 'write' },
});

export const createBRecord = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/createBRecord',
  access: 'user',
  handler: 'transfers/create-b-record',
  summary:
    "Creates a pending file in the caller's draft transfer and answers where to send its bytes, straight to S3: a presigned POST (size and type pinned) up to 16 MiB, a multipart upload above (parts signed by sign-parts). 400 for a refused type or a size over the plan's limit for the transfer; 404 for a transfer that is not the caller's; 409 once it is sent.",
  body: createBRecordBodySchema,
  response: uploadingFileSchema,
  capabilities: { bucket: 'write' },
});

export const signUploadParts = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/{id}/mod/upload/parts',
  access: 'user',
  handler: 'transfers/sign-upload-parts',
  summary:
    "Presigned PUT urls (valid 1 hour) for parts of a pending multipart file of the caller's: up to 100 part numbers per call, each within the file's part count.",
  params: fileIdParamsSchema,
  body: signPartsBodySchema,
  response: signedPartsSchema,
  capabilities: { bucket: 'write' },
});

export const listUploadedParts = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/mod/upload/parts',
  access: 'user',
  handler: 'transfers/list-uploaded-parts',
  summary:
    "The parts of a pending multipart file that S3 already holds (number, size, ETag), so an interrupted upload sends only the missing ones. The caller's own files only.",
  params: fileIdParamsSchema,
  response: uploadedPartsSchema,
  capabilities: { bucket: 'read' },
});

export const abortUpload = defineRoute({
  method: 'DELETE',
  path: '/api/i/file/file/{id}/mod/upload',
  access: 'user',
  handler: 'transfers/abort-upload',
  summary:
    "Cancels the upload of a pending file of the caller's: S3 drops the parts it holds and the file leaves the transfer. 409 for a file that is already ready (delete it instead).",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const finalizeBRecord = defineRoute({
  method: 'PUT',
  path: '/api/i/file/file/{id}/mod/finalizeBRecord',
  access: 'user',
  handler: 'transfers/finalize-b-record',
  summary:
    "Checks what S3 holds for a pending file of the caller's (a multipart upload is completed first): the size must equal the declared one and the type the declared type; images are sniffed from their first bytes. Then the file is ready, with its checksum. An object that does not match is deleted and the answer is 400 with why; a missing one is 409. Finalizing a ready file answers it again. 503 when S3 cannot be reached (the file stays pending).",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const deleteFile = defineRoute({
  method: 'DELETE',
  path: '/api/i/file/file/{id}/mod',
  access: 'user',
  handler: 'transfers/delete-file',
  summary:
    "Deletes a file of the caller's and its bytes. A transfer's file only while the transfer is a draft (409 after it is sent).",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const downloadFile = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/download',
  access: 'user',
  handler: 'transfers/download-file',
  summary:
    "A presigned GET (valid 5 minutes) for a ready file, carrying its original name: for the transfer's sender and recipients (404 for anyone else), 410 once the transfer has expired. A recipient's first download tells the sender.",
  params: fileIdParamsSchema,
  query: downloadQuerySchema,
  response: downloadLinkSchema,
  capabilities: { table: 'read-write', bucket: 'read', email: true, realtime: true },
});

export const uploadImageByBase64 = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/by/base64',
  access: 'user',
  handler: 'transfers/upload-image-by-base64',
  summary:
    'Stores an image sent as base64 (optionally a data: url): PNG, JPEG, GIF, WebP or AVIF, recognised from its bytes (the name and declared type are not trusted), at most 4 MiB. SVG is refused. Answers the ready file and a url to show it.',
  body: base64ImageBodySchema,
  response: storedImageSchema,
  capabilities: { bucket: 'read-write' },
});

export const uploadImageByUrl = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/by/imageUrl',
  access: 'user',
  handler: 'transfers/upload-image-by-url',
  summary:
    'Fetches an image from a public http(s) url (private and loopback addresses refused, redirects checked again, at most 10 MiB, 10 seconds) and stores it as by/base64 does.',
  body: imageUrlBodySchema,
  response: storedImageSchema,
  capabilities: { bucket: 'read-write' },
  timeoutSeconds: IMAGE_FETCH_TIMEOUT_SECONDS,
});

export const uploadImageByFile = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/by/imageFile',
  access: 'user',
  handler: 'transfers/upload-image-by-file',
  summary:
    'Creates a pending image file and a presigned POST for its bytes (at most 10 MiB, one of the image types); finalizeBRecord then checks the bytes really are that image.',
  body: imageFileBodySchema,
  response: uploadingFileSchema,
  capabilities: { bucket: 'write' },
});

export const allFileRoutes = {
  getFile,
  createFiles,
  createBRecord,
  signUploadParts,
  listUploadedParts,
  abortUpload,
  finalizeBRecord,
  deleteFile,
  downloadFile,
  uploadImageByBase64,
  uploadImageByUrl,
  uploadImageByFile,
};
