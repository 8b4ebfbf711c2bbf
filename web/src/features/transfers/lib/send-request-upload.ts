import type { RequestUploadView } from '@shared/schemas/file-requests';
import type { UploadingFile } from '@shared/schemas/transfers';
import { CREATE_FILES_BATCH, type DeclaredFile } from '../api/create-files';
import { FILES_AT_ONCE, type PickedFile, type UploadFn } from './send-transfer';
import type { UploadApi } from '../../../lib/uploads/upload-client';
import type { UploadTransport } from '../../../lib/uploads/upload-transport';

/** What an upload through a file request calls: the API modules in the page, fakes in tests. */
export interface RequestUploadDeps {
  start(requestId: string, body: { name: string; note: string }): Promise<RequestUploadView>;
  createFiles(uploadId: string, files: readonly DeclaredFile[]): Promise<{ files: UploadingFile[] }>;
  finish(uploadId: string): Promise<RequestUploadView>;
  upload: UploadFn;
  uploadApi(uploadId: string): UploadApi;
  transport: UploadTransport;
}

export interface RequestUploadInput {
  readonly requestId: string;
  readonly name: string;
  readonly note: string;
  readonly files: readonly PickedFile[];
  /** Bytes sent so far, over all the files' bytes. */
  readonly onProgress?: (sentBytes: number, totalBytes: number) => void;
  readonly signal?: AbortSignal;
}

/**
 * Sends the picked files through a request, as a sender's files go: the upload is started (which
 * sets its grant cookie), the files' records made in batches, the bytes sent straight to storage
 * by the same upload client, a few files at once, each checked by the server; then the upload is
 * finished and the requester told. Answers the finished upload: the uploader's own files.
 */
export async function sendRequestUpload(input: RequestUploadInput, deps: RequestUploadDeps): Promise<RequestUploadView> {
  const upload = await deps.start(input.requestId, { name: input.name, note: input.note });
  const api = deps.uploadApi(upload.id);
  const records: { picked: PickedFile; uploading: UploadingFile }[] = [];
  for (let start = 0; start < input.files.length; start += CREATE_FILES_BATCH) {
    const batch = input.files.slice(start, start + CREATE_FILES_BATCH);
    const { files } = await deps.createFiles(
      upload.id,
      batch.map(({ file }) => ({ name: file.name, size: file.size, type: file.type, lastModified: file.lastModified })),
    );
    files.forEach((uploading, index) => {
      const picked = batch[index];
      if (picked) records.push({ picked, uploading });
    });
  }
  const totalBytes = input.files.reduce((sum, { file }) => sum + file.size, 0);
  const sent = new Map<string, number>();
  const report = () =>
    input.onProgress?.(
      [...sent.values()].reduce((sum, bytes) => sum + bytes, 0),
      totalBytes,
    );
  report();
  const queue = [...records];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { picked, uploading } = next;
      await deps.upload({
        file: picked.file,
        uploading,
        api,
        transport: deps.transport,
        ...(input.signal ? { signal: input.signal } : {}),
        onProgress: (progress) => {
          sent.set(uploading.file.id, progress.sentBytes);
          report();
        },
      });
      sent.set(uploading.file.id, uploading.file.size);
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, queue.length) }, worker));
  return deps.finish(upload.id);
}
