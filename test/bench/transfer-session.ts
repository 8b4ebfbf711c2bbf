/**
 * What the transfer benchmarks share: calls to the running local runtime's transfer and file
 * routes as a signed-in sender (API_URL, BENCH_SESSION), and the upload client's API wired to
 * them, as the web app wires it. Plain fetch only: a script that measures its own memory loads
 * nothing else.
 */
import type { UploadApi } from '../../web/src/lib/uploads/upload-client';
import type { UploadingFile } from '../../shared/schemas/transfers';
import { APPLICATION_ID_HEADER, SESSION_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';

const { API_URL, BENCH_SESSION } = process.env;
if (!API_URL || !BENCH_SESSION) throw new Error('Usage: API_URL=... BENCH_SESSION=... tsx <transfer bench script>');
export const apiUrl = API_URL;
/** The signed-in sender's session token. */
export const session = BENCH_SESSION;
const headers = (token: string) => ({ [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID, cookie: `${SESSION_HEADER}=${token}` });

export async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { ...headers(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (!answer.ok) {
    throw Object.assign(new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 300)}`), {
      status: answer.status,
    });
  }
  return JSON.parse(text) as T;
}

export function uploadApi(token: string): UploadApi {
  const file = (id: string) => `/api/i/file/file/${encodeURIComponent(id)}`;
  return {
    signForm: (fileId) => call(token, 'POST', `${file(fileId)}/mod/upload/form`),
    signParts: (fileId, partNumbers) => call(token, 'POST', `${file(fileId)}/mod/upload/parts`, { partNumbers }),
    listParts: (fileId) => call(token, 'GET', `${file(fileId)}/mod/upload/parts`),
    finalize: (fileId) => call(token, 'PUT', `${file(fileId)}/mod/finalizeBRecord`),
    abort: async (fileId) => {
      await call(token, 'DELETE', `${file(fileId)}/mod/upload`);
    },
  };
}

export async function draftTransfer(token: string, title: string): Promise<string> {
  const transfer = await call<{ id: string }>(token, 'POST', '/api/i/transfer/transfer', { title });
  return transfer.id;
}

export function createFiles(token: string, transferId: string, files: { name: string; size: number; type: string }[]) {
  return call<{ files: UploadingFile[] }>(token, 'POST', '/api/i/file/files', { transferId, files });
}
