import zipWorkerUrl from './zip-download-sw.ts?worker&url';
import { DOWNLOAD_SEGMENT, type FromWorker, type ToWorker, type ZipEntry } from './zip-download-protocol';
import { resumableFileStream } from './resumable-fetch';
import { uniqueZipNames } from './zip-names';

/**
 * "Download all as .zip": the page side of the zip service worker (see zip-download-sw.ts for
 * why the zip is made there). Where service workers are unavailable (a private window in some
 * browsers, a page not served over https), a package small enough to hold in memory is zipped
 * in the page instead; a larger one is refused with a way out.
 */

export interface ZipDownloadProgress {
  readonly bytes: number;
  /** The files' bytes (the zip adds a little to it). */
  readonly totalBytes: number;
}

export interface ZipDownloadOptions {
  readonly name: string;
  readonly files: readonly ZipEntry[];
  readonly onProgress?: (progress: ZipDownloadProgress) => void;
}

/** What a page may zip in memory when it cannot stream. */
export const IN_MEMORY_LIMIT_BYTES = 500_000_000;
/** While a download runs, the page pings the worker this often: some browsers stop a worker idle for 30 s. */
const PING_EVERY_MS = 10_000;
/** How long the worker has to take the list, then to see the download's request. */
const READY_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 20_000;

export class ZipDownloadError extends Error {
  override readonly name = 'ZipDownloadError';
}

function canStream(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext;
}

/** The worker once active: registered on first use (its scope is its own folder), then reused. */
async function activeWorker(): Promise<{ worker: ServiceWorker; scope: string }> {
  const registration = await navigator.serviceWorker.register(zipWorkerUrl, {
    // The dev server serves the worker as an ES module; the build bundles it into a classic script.
    type: import.meta.env.DEV ? 'module' : 'classic',
  });
  const candidate = registration.active ?? registration.waiting ?? registration.installing;
  if (!candidate) throw new ZipDownloadError('The download helper could not start.');
  if (candidate.state !== 'activated') {
    await new Promise<void>((resolve, reject) => {
      const onChange = () => {
        if (candidate.state === 'activated') {
          candidate.removeEventListener('statechange', onChange);
          resolve();
        } else if (candidate.state === 'redundant') {
          candidate.removeEventListener('statechange', onChange);
          reject(new ZipDownloadError('The download helper could not start.'));
        }
      };
      candidate.addEventListener('statechange', onChange);
      onChange();
    });
  }
  return { worker: registration.active ?? candidate, scope: registration.scope };
}

function streamThroughWorker(name: string, files: readonly ZipEntry[], onProgress: (bytes: number) => void): Promise<void> {
  return activeWorker().then(
    ({ worker, scope }) =>
      new Promise<void>((resolve, reject) => {
        const id = crypto.randomUUID();
        const channel = new MessageChannel();
        let ping: ReturnType<typeof setInterval> | undefined;
        // Each step must come in time: the list taken, then the download's request seen.
        let timer = setTimeout(
          () => finish(new ZipDownloadError('The download helper did not answer. Try again.')),
          READY_TIMEOUT_MS,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          if (ping !== undefined) clearInterval(ping);
          channel.port1.close();
          if (error) reject(error);
          else resolve();
        };
        channel.port1.onmessage = (event: MessageEvent<FromWorker>) => {
          const message = event.data;
          if (message.type === 'ready') {
            clearTimeout(timer);
            timer = setTimeout(() => finish(new ZipDownloadError('The download did not start. Try again.')), START_TIMEOUT_MS);
            ping = setInterval(() => worker.postMessage({ type: 'ping' } satisfies ToWorker), PING_EVERY_MS);
            // A navigation, not a hidden iframe (the site's CSP allows no same-site frames): the
            // worker answers it with an attachment, so the browser saves the zip and the page stays.
            window.location.assign(new URL(`${DOWNLOAD_SEGMENT}${id}/${encodeURIComponent(name)}`, scope).href);
          } else if (message.type === 'started') {
            clearTimeout(timer);
          } else if (message.type === 'progress') {
            onProgress(message.bytes);
          } else if (message.type === 'done') {
            onProgress(message.bytes);
            finish();
          } else {
            finish(new ZipDownloadError(message.message));
          }
        };
        worker.postMessage({ type: 'zip', id, name, files } satisfies ToWorker, [channel.port2]);
      }),
  );
}

async function zipInMemory(name: string, files: readonly ZipEntry[], onProgress: (bytes: number) => void): Promise<void> {
  const { downloadZip } = await import('client-zip');
  let bytes = 0;
  async function* entries() {
    for (const file of files) {
      let blob: Blob;
      try {
        blob = await new Response(resumableFileStream(file.url, file)).blob();
      } catch (error) {
        throw new ZipDownloadError(error instanceof Error ? error.message : `${file.name} could not be downloaded.`);
      }
      bytes += blob.size;
      onProgress(bytes);
      yield { name: file.name, size: file.size, input: blob };
    }
  }
  const blob = await downloadZip(entries()).blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves every file in one zip; resolves once the whole zip has been handed to the browser. */
export async function downloadAllAsZip({ name, files, onProgress }: ZipDownloadOptions): Promise<void> {
  const entries = uniqueZipNames(files);
  const totalBytes = entries.reduce((sum, file) => sum + file.size, 0);
  const report = (bytes: number) => onProgress?.({ bytes: Math.min(bytes, totalBytes), totalBytes });
  if (canStream()) {
    await streamThroughWorker(name, entries, report);
    return;
  }
  if (totalBytes > IN_MEMORY_LIMIT_BYTES) {
    throw new ZipDownloadError(
      'This browser cannot save a zip this large as it downloads (private windows often cannot). Download the files one by one, or open the page in a regular window.',
    );
  }
  await zipInMemory(name, entries, report);
}
