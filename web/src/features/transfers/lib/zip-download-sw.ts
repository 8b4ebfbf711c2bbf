/**
 * The service worker that streams "Download all" to disk. Vite bundles it with client-zip (the
 * page imports it with `?worker&url`) and the page registers it on the first "Download all".
 *
 * Why a service worker: a package may hold many gigabytes, more than a tab can keep in memory,
 * and a page cannot hand a stream it makes to the browser's download manager. A service worker
 * can: it answers a navigation with client-zip's streaming Response, which the browser saves as
 * it arrives (Content-Disposition: attachment). Each file is fetched from S3 in turn (resumed with
 * a Range from where it stopped should its connection drop) and passes through as a stream, so at any moment only a few chunks are in memory, whether the zip is 5 MB
 * or 5 GB. (The File System Access API streams too, but only Chromium has it.)
 *
 * The page posts the list of files with a MessagePort, waits for 'ready', then navigates to
 * `<scope>zip-download/<id>/<name>`: a navigation rather than a hidden iframe, since the site's
 * CSP allows no same-site frames, and a navigation answered with an attachment leaves the page
 * where it is. The worker answers that request once and reports the start, the bytes and the end
 * on the port; the page pings it while the download runs, since some browsers stop an idle worker
 * even while it feeds a download.
 */
import { downloadZip } from 'client-zip';
import { DOWNLOAD_SEGMENT, type FromWorker, type ToWorker, type ZipEntry } from './zip-download-protocol';
import { resumableFileStream } from './resumable-fetch';
import { attachmentDisposition } from './zip-names';

/** The service worker's global scope, as far as this file uses it (the web tsconfig has DOM types, not WebWorker). */
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface MessageEventLike extends ExtendableEventLike {
  readonly data: unknown;
  readonly ports: readonly MessagePort[];
}
interface WorkerScope {
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

const worker = self as unknown as WorkerScope;

/** Progress is posted at most this often. */
const PROGRESS_EVERY_MS = 500;
/** A list the page posted but never asked for is forgotten after this long (its urls are short-lived anyway). */
const FORGET_AFTER_MS = 5 * 60_000;

interface PendingZip {
  readonly name: string;
  readonly files: readonly ZipEntry[];
  readonly port: MessagePort;
  readonly timer: ReturnType<typeof setTimeout>;
}

const pending = new Map<string, PendingZip>();

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('message', (event) => {
  const data = event.data as ToWorker | undefined;
  // A ping only has to arrive: each event keeps the worker alive a while longer.
  if (!data || data.type !== 'zip') return;
  const port = event.ports[0];
  if (!port) return;
  const timer = setTimeout(() => pending.delete(data.id), FORGET_AFTER_MS);
  pending.set(data.id, { name: data.name, files: data.files, port, timer });
  post(port, { type: 'ready' });
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const base = new URL(DOWNLOAD_SEGMENT, worker.registration.scope);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return;
  const id = url.pathname.slice(base.pathname.length).split('/')[0] ?? '';
  const zip = pending.get(id);
  if (!zip) {
    // 204 to a navigation leaves the page as it was; the page, hearing nothing, says so.
    event.respondWith(new Response(null, { status: 204 }));
    return;
  }
  pending.delete(id);
  clearTimeout(zip.timer);
  post(zip.port, { type: 'started' });
  event.respondWith(zipResponse(zip));
});

function post(port: MessagePort, message: FromWorker): void {
  port.postMessage(message);
}

function zipResponse(zip: PendingZip): Response {
  let bytes = 0;
  let reportedAt = 0;
  const count = (chunk: Uint8Array) => {
    bytes += chunk.byteLength;
    const now = Date.now();
    if (now - reportedAt >= PROGRESS_EVERY_MS) {
      reportedAt = now;
      post(zip.port, { type: 'progress', bytes });
    }
  };

  const reportFailure = (error: Error) => post(zip.port, { type: 'error', message: error.message });

  async function* entries() {
    for (const file of zip.files) {
      // Each file resumes by itself from where its connection dropped (resumable-fetch.ts); one
      // given up fails the zip, and says which file.
      const input = resumableFileStream(file.url, file, { onGiveUp: reportFailure });
      const counted = input.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            count(chunk);
            controller.enqueue(chunk);
          },
        }),
      );
      yield { name: file.name, size: file.size, input: counted };
    }
  }

  async function* reported() {
    try {
      yield* entries();
    } catch (error) {
      post(zip.port, { type: 'error', message: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  // The sizes are known, so the browser is told the zip's length and shows how much is left.
  const archive = downloadZip(reported(), { metadata: zip.files.map(({ name, size }) => ({ name, size })) });
  const body = archive.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      flush() {
        post(zip.port, { type: 'done', bytes });
      },
    }),
  );
  const headers = new Headers(archive.headers);
  headers.set('Content-Type', 'application/zip');
  headers.set('Content-Disposition', attachmentDisposition(zip.name));
  return new Response(body ?? null, { headers });
}
