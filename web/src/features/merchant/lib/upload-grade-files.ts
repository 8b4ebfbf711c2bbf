import type { FileView } from '@shared/schemas/transfers';
import { uploadApi } from '../../../lib/uploads/upload-api';
import { type FileUploadProgress, uploadFile, type UploadFileOptions } from '../../../lib/uploads/upload-client';
import { xhrTransport } from '../../../lib/uploads/upload-transport';
import { createGradeFiles } from '../api/create-grade-files';

/** The upload client's send (uploadFile): tests give a stand-in. */
export type UploadFn = (options: UploadFileOptions) => Promise<FileView>;

/**
 * Adds files to a grade: the server makes them pending in the shop's space, then each is sent
 * straight to S3 and finalized by the same upload client (and file routes) as a transfer's files.
 * One at a time, as a merchant adds a few files at most; `onProgress` reports each file's bytes.
 */
export async function uploadGradeFiles(
  productStockGradeId: string,
  files: readonly File[],
  options: { upload: UploadFn; onProgress: (name: string, progress: FileUploadProgress) => void },
): Promise<FileView[]> {
  const { files: uploading } = await createGradeFiles(
    productStockGradeId,
    files.map((file) => ({ name: file.name, size: file.size, type: file.type, lastModified: file.lastModified })),
  );
  const ready: FileView[] = [];
  for (const [index, target] of uploading.entries()) {
    const file = files[index];
    if (!file) continue;
    ready.push(
      await options.upload({
        file,
        uploading: target,
        api: uploadApi,
        transport: xhrTransport,
        onProgress: (progress) => options.onProgress(file.name, progress),
      }),
    );
  }
  return ready;
}

export const sendFile: UploadFn = uploadFile;
