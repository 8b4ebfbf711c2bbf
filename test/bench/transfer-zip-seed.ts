/**
 * Prepares the zip benchmark: a package of 20 files totalling 1 GiB, sent with the product's
 * upload client, and the presigned GETs its "download all" route hands out. Prints them as one
 * JSON line, for transfer-zip.ts to zip in a process of its own.
 */
import { uploadFile } from '../../web/src/lib/uploads/upload-client';
import { fetchTransport } from '../../web/src/lib/uploads/upload-transport';
import { call, createFiles, draftTransfer, session, uploadApi } from './transfer-session';

const FILES = 20;
const TOTAL = 1024 * 1024 * 1024;
const FILE_SIZE = Math.floor(TOTAL / FILES);
/** The last file takes what the division leaves, so the package is exactly 1 GiB. */
const sizeOf = (index: number) => (index === FILES - 1 ? TOTAL - FILE_SIZE * (FILES - 1) : FILE_SIZE);

const sender = { token: session };
const transferId = await draftTransfer(sender.token, 'Zip benchmark');
const declared = Array.from({ length: FILES }, (_, index) => ({
  name: `part-${index + 1}.bin`,
  size: FILE_SIZE,
  type: 'application/octet-stream',
}));
const { files } = await createFiles(sender.token, transferId, declared);
// One buffer of ~51 MiB reused for every file: what is measured below is the zip, not this.
const content = new Uint8Array(sizeOf(FILES - 1));
for (let index = 0; index < content.length; index += 1) content[index] = (index * 7) & 0xff;
for (const uploading of files) {
  const file = Object.assign(new Blob([content.subarray(0, uploading.file.size)]), {
    name: uploading.file.name,
    lastModified: 0,
  });
  await uploadFile({ file, uploading, api: uploadApi(sender.token), transport: fetchTransport });
}
await call(sender.token, 'POST', `/api/i/transfer/transfer/${transferId}/addRecipient`, {
  email: 'zip-bench-recipient@example.com',
});
await call(sender.token, 'POST', `/api/i/transfer/transfer/${transferId}/finalize`);

const links = await call<{ files: { name: string; size: number; url: string }[] }>(
  sender.token,
  'GET',
  `/api/i/transfer/transfer/${transferId}/v/package/download`,
);
console.log(JSON.stringify(links));
