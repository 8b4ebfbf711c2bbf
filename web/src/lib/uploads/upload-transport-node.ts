/**
 * The upload transport for Node: node:http(s), with the body streamed from its Blob as it is
 * written to the socket. Node-only (it imports node: modules), so nothing the browser bundle loads
 * may import it; the page uses xhrTransport.
 *
 * Why not fetchTransport in Node: undici's fetch clones every request whose redirect mode is not
 * 'error' (the Fetch standard's "HTTP-network-or-cache fetch"), and cloning tees the body stream.
 * The branch that is never read keeps a copy of every chunk sent until the request is over, so
 * each part in flight holds its whole size (8 MiB) in memory, twice allocated, and those copies
 * live long enough to reach V8's old space, which only a full collection frees. Uploading 1 GiB
 * in 8 MiB parts, 4 in flight, the process grew ~120 MB resident above its idle size with fetch
 * and ~55 MB with this transport. It also reports progress as bytes are written, as
 * XMLHttpRequest does in the browser, where fetch could only report a part once it was answered.
 */
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { TransportNetworkError, type TransportRequest, type TransportResponse, type UploadTransport } from './upload-transport';

export interface NodeTransportOptions {
  /**
   * A request with no byte sent or received for this long fails as a network failure (which the
   * client retries). node:http has no such limit of its own; undici's fetch gives up after 300 s.
   */
  readonly idleTimeoutMs?: number;
}

const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** The most handed to the socket at once: what a file-backed Blob streams in. */
const WRITE_BYTES = 64 * 1024;

/** What goes on the wire, in order: bytes held in memory, or a Blob read as it is written. */
type Segment = Uint8Array | Blob;

interface EncodedBody {
  readonly segments: readonly Segment[];
  readonly length: number;
  readonly contentType: string | undefined;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The upload was aborted.', 'AbortError');
}

/** As the Fetch standard encodes a form's names and file names: line breaks and quotes escaped. */
function escapeQuoted(value: string): string {
  return value.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
}

function crlfLineBreaks(value: string): string {
  return value.replace(/\r(?!\n)|(?<!\r)\n/g, '\r\n');
}

/**
 * A form as multipart/form-data, with its exact length: node:http does not encode FormData, and
 * S3 wants a Content-Length. The file stays a Blob, read only as it is sent.
 */
function encodeForm(form: FormData): EncodedBody {
  const boundary = `----upload-client-${randomBytes(16).toString('hex')}`;
  const segments: Segment[] = [];
  const text = (value: string) => segments.push(Buffer.from(value, 'utf8'));
  for (const [name, value] of form.entries()) {
    const disposition = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(crlfLineBreaks(name))}"`;
    if (typeof value === 'string') {
      text(`${disposition}\r\n\r\n${crlfLineBreaks(value)}\r\n`);
    } else {
      text(
        `${disposition}; filename="${escapeQuoted(value.name)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`,
      );
      segments.push(value);
      text('\r\n');
    }
  }
  text(`--${boundary}--\r\n`);
  return { segments, length: lengthOf(segments), contentType: `multipart/form-data; boundary=${boundary}` };
}

function lengthOf(segments: readonly Segment[]): number {
  return segments.reduce((sum, segment) => sum + (segment instanceof Blob ? segment.size : segment.byteLength), 0);
}

function encode(body: Blob | FormData): EncodedBody {
  if (body instanceof FormData) return encodeForm(body);
  // As fetch and XMLHttpRequest do: a typed Blob names its type, an untyped one (a part) sends none.
  return { segments: [body], length: body.size, contentType: body.type || undefined };
}

/** Resolves once the request can take more bytes, or once it closed (the caller checks which). */
function writable(request: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      request.off('drain', done);
      request.off('close', done);
      resolve();
    };
    request.on('drain', done);
    request.on('close', done);
  });
}

/**
 * Writes the body, one chunk of a Blob's stream at a time and no more than the socket takes, so
 * a part in flight holds a chunk (64 KiB from a file) rather than its whole size. Resolves true
 * once every byte is handed to the request, false when `stopped` (an answer, an abort or a
 * failure came first) ended it. `onQueued` counts bytes handed over, `onWritten` those the socket took.
 */
async function writeBody(
  request: ClientRequest,
  segments: readonly Segment[],
  stopped: () => boolean,
  onQueued: (bytes: number) => void,
  onWritten: (bytes: number) => void,
): Promise<boolean> {
  const write = async (chunk: Uint8Array) => {
    // A Blob held in memory streams as one chunk: views of it keep the progress as fine as a file's.
    for (let start = 0; start < chunk.byteLength && !stopped(); start += WRITE_BYTES) {
      const piece = chunk.subarray(start, start + WRITE_BYTES);
      onQueued(piece.byteLength);
      const taken = request.write(piece, (error) => {
        if (!error) onWritten(piece.byteLength);
      });
      if (!taken) await writable(request);
    }
  };
  for (const segment of segments) {
    if (stopped()) return false;
    if (!(segment instanceof Blob)) {
      await write(segment);
      continue;
    }
    const reader = segment.stream().getReader();
    let finished = false;
    try {
      for (;;) {
        if (stopped()) return false;
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          break;
        }
        await write(value);
      }
    } finally {
      // Releases the file the Blob reads from when the body was not sent to its end.
      if (!finished) await reader.cancel().catch(() => undefined);
    }
  }
  return true;
}

function readText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
    });
    response.on('end', () => {
      ended = true;
      resolve(text);
    });
    response.on('error', reject);
    response.on('close', () => {
      if (!ended) reject(new Error('The answer ended early.'));
    });
  });
}

/** A transport on node:http(s); `nodeTransport` is one with the defaults. */
export function createNodeTransport(options: NodeTransportOptions = {}): UploadTransport {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return { send: (request) => send(request, idleTimeoutMs) };
}

function send(request: TransportRequest, idleTimeoutMs: number): Promise<TransportResponse> {
  return new Promise<TransportResponse>((resolve, reject) => {
    const { signal } = request;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const url = new URL(request.url);
    const open = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!open) {
      // Not a TransportNetworkError: sending it again would not help.
      reject(new Error(`The upload url ${url.protocol}//${url.host} is neither http nor https.`));
      return;
    }
    const body = encode(request.body);
    const headers: Record<string, string> = { 'content-length': String(body.length) };
    if (body.contentType) headers['content-type'] = body.contentType;

    let settled = false;
    const outgoing = open(url, { method: request.method, headers });
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: unknown) => {
      finish(() => reject(error));
      outgoing.destroy();
    };
    const networkFailure = (message: string, cause?: unknown) =>
      fail(new TransportNetworkError(message, cause === undefined ? undefined : { cause }));
    function onAbort() {
      if (signal) fail(abortReason(signal));
    }
    signal?.addEventListener('abort', onAbort, { once: true });

    let queuedBytes = 0;
    let sentBytes = 0;
    const report = request.onProgress;
    writeBody(
      outgoing,
      body.segments,
      () => settled || outgoing.destroyed,
      (bytes) => {
        queuedBytes += bytes;
      },
      (bytes) => {
        sentBytes += bytes;
        // Once settled, the client has counted the part as done or rolled it back: a late report would undo that.
        if (report && !settled) report(sentBytes, body.length);
      },
    ).then(
      (complete) => {
        if (complete && !outgoing.writableEnded) outgoing.end();
      },
      (error: unknown) =>
        // The Blob could not be read (its file changed or went away): not the network's doing.
        fail(new Error(`Reading the file to upload failed: ${messageOf(error)}`, { cause: error })),
    );

    // Kept for the request's whole life: an 'error' without a listener would crash the process.
    outgoing.on('error', (error) =>
      networkFailure(`The upload request to ${url.host} failed before an answer came: ${error.message}`, error),
    );
    outgoing.setTimeout(idleTimeoutMs, () =>
      networkFailure(`The upload request to ${url.host} timed out: nothing moved for ${idleTimeoutMs / 1000} s.`),
    );
    outgoing.on('response', (response) => {
      readText(response).then(
        (text) => {
          finish(() => resolve({ status: response.statusCode ?? 0, etag: headerValue(response.headers.etag), body: text }));
          // S3 may answer (a refusal) before the whole body came: that connection cannot carry another request.
          if (queuedBytes < body.length) outgoing.destroy();
          else if (!outgoing.writableEnded) outgoing.end();
        },
        (error: unknown) => networkFailure('The connection closed while S3 was answering.', error),
      );
    });
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** The Node transport with the defaults: what a Node caller of uploadFile passes as `transport`. */
export const nodeTransport: UploadTransport = createNodeTransport();
