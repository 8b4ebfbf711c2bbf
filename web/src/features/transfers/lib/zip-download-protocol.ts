/** What the page and the zip service worker say to each other (zip-download.ts and zip-download-sw.ts). */

export interface ZipEntry {
  readonly name: string;
  readonly size: number;
  readonly url: string;
}

/** Page to worker. `zip` comes with a MessagePort on which the worker answers. */
export type ToWorker =
  | { readonly type: 'zip'; readonly id: string; readonly name: string; readonly files: readonly ZipEntry[] }
  | { readonly type: 'ping' };

/** Worker to page, on the port. */
export type FromWorker =
  | { readonly type: 'ready' }
  /** The download's request reached the worker: the browser is saving the zip. */
  | { readonly type: 'started' }
  | { readonly type: 'progress'; readonly bytes: number }
  | { readonly type: 'done'; readonly bytes: number }
  | { readonly type: 'error'; readonly message: string };

/** Downloads live under the worker's scope at `<scope>zip-download/<id>/<name>`. */
export const DOWNLOAD_SEGMENT = 'zip-download/';
