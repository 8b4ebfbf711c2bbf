/**
 * What the transfer benchmarks share: calls to the running local runtime's transfer and file
 * routes as a signed-in sender, and the upload client's API wired to them, as the web app wires it.
 */
import type { UploadApi } from '../../web/src/features/transfers/lib/upload-client';
import type { UploadingFile } from '../../shared/schemas/files';
import { apiUrl, headers } from './bench-session';

export async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { ...headers(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (!answer.ok) {
    throw Object.assign(new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 300)}`), { status: answer.status });
  }
  return JSON.parse(text) as T;
}

export function uploadApi(token: string): UploadApi {
  const file = (id: string) => `/api/i/file/file/${encodeURIComponent(id)}`;
  return {
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

/** Samples the process's resident memory every 50 ms: the peak of what ran since the last reset. */
export function memoryPeak() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  timer.unref();
  return {
    reset: () => {
      peak = process.memoryUsage().rss;
    },
    peakMb: () => Math.max(peak, process.memoryUsage().rss) / 1024 / 1024,
    stop: () => clearInterval(timer),
  };
}
