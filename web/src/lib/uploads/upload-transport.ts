/**
 * How the upload client sends one request to S3. XMLHttpRequest in the browser (fetch cannot
 * report upload progress) and fetch in other runtimes, which reports a request's bytes when S3
 * accepts them. Node has a transport of its own on node:http, in upload-transport-node.ts, kept
 * apart so that the browser bundle never loads node: modules. Neither transport here touches a
 * browser global until it sends, so this module loads in Node.
 */

export interface TransportRequest {
  readonly method: 'PUT' | 'POST';
  readonly url: string;
  /** A part (a Blob slice) or a presigned POST form; sent as it is, never read whole first. */
  readonly body: Blob | FormData;
  readonly signal?: AbortSignal;
  /** Bytes of the body sent so far, out of `totalBytes` (a form's envelope included). */
  readonly onProgress?: (sentBytes: number, totalBytes: number) => void;
}

export interface TransportResponse {
  readonly status: number;
  /** S3's ETag header (quoted, as S3 sends it), or null when absent or not exposed by CORS. */
  readonly etag: string | null;
  readonly body: string;
}

export interface UploadTransport {
  /**
   * Resolves with any HTTP answer (a 4xx or 5xx included). Rejects with TransportNetworkError when
   * no answer came (connection refused or dropped), or with the signal's reason once it aborts.
   */
  send(request: TransportRequest): Promise<TransportResponse>;
}

/** No HTTP answer: the connection failed or was dropped. Worth trying again. */
export class TransportNetworkError extends Error {
  override readonly name = 'TransportNetworkError';
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The upload was aborted.', 'AbortError');
}

/** The body's length, as near as can be told without reading it: exact for a Blob, the carried bytes for a form. */
function bodyBytes(body: Blob | FormData): number {
  if (!(body instanceof FormData)) return body.size;
  let bytes = 0;
  for (const [name, value] of body.entries()) bytes += name.length + (typeof value === 'string' ? value.length : value.size);
  return bytes;
}

/** The browser's transport: XMLHttpRequest, for its upload progress events. */
export const xhrTransport: UploadTransport = {
  send(request) {
    return new Promise<TransportResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const xhr = new XMLHttpRequest();
      const onAbort = () => xhr.abort();
      const settle = () => signal?.removeEventListener('abort', onAbort);
      xhr.open(request.method, request.url);
      xhr.responseType = 'text';
      if (request.onProgress) {
        const report = request.onProgress;
        // Listening on xhr.upload must happen before send(); the fallback total covers a lengthless event.
        xhr.upload.addEventListener('progress', (event) =>
          report(event.loaded, event.lengthComputable ? event.total : bodyBytes(request.body)),
        );
      }
      xhr.addEventListener('load', () => {
        settle();
        resolve({
          status: xhr.status,
          etag: xhr.getResponseHeader('ETag'),
          body: typeof xhr.response === 'string' ? xhr.response : '',
        });
      });
      xhr.addEventListener('error', () => {
        settle();
        reject(new TransportNetworkError(`The upload request to ${new URL(request.url).host} failed before an answer came.`));
      });
      xhr.addEventListener('timeout', () => {
        settle();
        reject(new TransportNetworkError(`The upload request to ${new URL(request.url).host} timed out.`));
      });
      xhr.addEventListener('abort', () => {
        settle();
        reject(signal?.aborted ? abortReason(signal) : new TransportNetworkError('The upload request was aborted.'));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      xhr.send(request.body);
    });
  },
};

/**
 * The transport for a runtime with fetch but no XMLHttpRequest. A Blob body streams from its
 * source; progress is reported once, when the answer comes. In Node prefer nodeTransport: undici's
 * fetch tees each body (it clones the request in case of a redirect) and so holds every part in
 * flight whole in memory until it is answered.
 */
export const fetchTransport: UploadTransport = {
  async send(request) {
    const { signal } = request;
    if (signal?.aborted) throw abortReason(signal);
    let response: Response;
    try {
      response = await fetch(request.url, { method: request.method, body: request.body, signal });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw new TransportNetworkError(`The upload request to ${new URL(request.url).host} failed before an answer came.`, {
        cause: error,
      });
    }
    let body: string;
    try {
      body = await response.text();
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw new TransportNetworkError('The connection closed while S3 was answering.', { cause: error });
    }
    // Only an accepted body counts: a refused one would be counted and rolled back at once.
    if (request.onProgress && response.ok) {
      const bytes = bodyBytes(request.body);
      request.onProgress(bytes, bytes);
    }
    return { status: response.status, etag: response.headers.get('etag'), body };
  },
};
