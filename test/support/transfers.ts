import { expect } from 'vitest';
import { routes } from '../../shared/routes';
import type { UploadingFile } from '../../shared/schemas/transfers';
import { partRange } from '../../shared/transfers/upload-sizing';
import { expectOk, type ApiClient, type SignedInUser } from './api-client';

/** Bytes that differ from position to position, so a part in the wrong place shows. */
export function patternedBytes(size: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) bytes[index] = (index * 31 + seed) & 0xff;
  return bytes;
}

/** Sends a file's bytes the way a browser does for a presigned POST: the form fields, then the file last. */
export async function postUpload(
  uploading: UploadingFile,
  bytes: Buffer,
  type: string,
  fieldOverrides: Record<string, string> = {},
): Promise<Response> {
  if (uploading.upload.method !== 'post') throw new Error('Not a POST upload');
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...uploading.upload.fields, ...fieldOverrides })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), uploading.file.name);
  return fetch(uploading.upload.url, { method: 'POST', body: form });
}

/** PUTs the given parts of a multipart file to their presigned urls. */
export async function putParts(
  api: ApiClient,
  as: SignedInUser,
  uploading: UploadingFile,
  bytes: Buffer,
  partNumbers: readonly number[],
): Promise<void> {
  if (uploading.upload.method !== 'multipart') throw new Error('Not a multipart upload');
  const signed = await api.call(routes.signUploadParts, {
    params: { id: uploading.file.id },
    body: { partNumbers: [...partNumbers] },
    as,
  });
  expectOk(signed);
  for (const part of signed.body.parts) {
    const { start, end } = partRange(bytes.length, uploading.upload.partSize, part.partNumber);
    const response = await fetch(part.url, { method: 'PUT', body: new Uint8Array(bytes.subarray(start, end)) });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

/** A sent transfer with the given files (small ones, one POST each) and recipients. */
export async function sentTransfer(
  api: ApiClient,
  sender: SignedInUser,
  options: { files: { name: string; bytes: Buffer; type: string }[]; recipients: string[]; title?: string; password?: string },
): Promise<{ transferId: string; fileIds: string[] }> {
  const created = await api.call(routes.createTransfer, {
    body: { title: options.title ?? 'Holiday photos', ...(options.password ? { password: options.password } : {}) },
    as: sender,
  });
  expectOk(created, 201);
  const transferId = created.body.id;
  const fileIds: string[] = [];
  for (const file of options.files) {
    const record = await api.call(routes.createBRecord, {
      body: { transferId, name: file.name, size: file.bytes.length, type: file.type },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, file.bytes, file.type)).status).toBe(204);
    expectOk(await api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));
    fileIds.push(record.body.file.id);
  }
  for (const email of options.recipients) {
    expectOk(await api.call(routes.addRecipient, { params: { id: transferId }, body: { email }, as: sender }));
  }
  expectOk(await api.call(routes.finalizeTransfer, { params: { id: transferId }, as: sender }));
  return { transferId, fileIds };
}
