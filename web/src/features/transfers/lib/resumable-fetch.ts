/**
 * A file's bytes from a presigned GET as one stream that survives a dropped connection: when the
 * connection fails or ends early, the file is asked for again with a Range from the byte where it
 * stopped, a few times with growing pauses, and the stream goes on as if nothing happened. Used
 * for each file of "Download all", so one dropped connection costs one file's retry, not the zip.
 *
 * S3 (and the local emulator) answer such a Range with 206 from that byte. A storage that ignores
 * Range answers 200 with the whole file: the bytes already passed on are then skipped.
 */

/** Retries after the first try, each after a pause: 1 s, 2 s, 4 s, 8 s. */
export const RESUME_RETRIES = 4;
const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 15_000;

export interface ResumableFetchOptions {
  readonly retries?: number;
  /** The pause before a retry, by its number (1 for the first). */
  readonly pauseMs?: (retry: number) => number;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called once, with the error the stream then fails with, when the file is given up. */
  readonly onGiveUp?: (error: Error) => void;
}

export class FileDownloadError extends Error {
  override readonly name = 'FileDownloadError';
}

/** An answer that a retry would not change (the link expired, the file is gone). */
class Refused extends FileDownloadError {}

const defaultPause = (retry: number) => Math.min(FIRST_PAUSE_MS * 2 ** (retry - 1), LONGEST_PAUSE_MS);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const isWorthRetrying = (status: number) => status === 408 || status === 429 || status >= 500;

/** The first byte a Content-Range names ("bytes 100-199/1000"), when the header can be read. */
function rangeStartOf(response: Response): number | null {
  const match = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : null;
}

/** A stream without its first `count` bytes. */
function skipping(body: ReadableStream<Uint8Array>, count: number): ReadableStream<Uint8Array> {
  let left = count;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (left >= chunk.byteLength) {
          left -= chunk.byteLength;
          return;
        }
        controller.enqueue(left > 0 ? chunk.subarray(left) : chunk);
        left = 0;
      },
    }),
  );
}

export function resumableFileStream(
  url: string,
  file: { readonly name: string; readonly size: number },
  options: ResumableFetchOptions = {},
): ReadableStream<Uint8Array> {
  const retries = options.retries ?? RESUME_RETRIES;
  const pauseMs = options.pauseMs ?? defaultPause;
  const fetchFile = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  let received = 0;
  /** Failures since bytes last arrived: a connection that keeps moving is not given up. */
  let failures = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

  async function open(): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    const resuming = received > 0;
    const response = await fetchFile(url, resuming ? { headers: { Range: `bytes=${received}-` } } : {});
    if (resuming && response.status === 206 && response.body) {
      const start = rangeStartOf(response);
      if (start !== null && start !== received) {
        await response.body.cancel();
        throw new FileDownloadError(`${file.name}: the storage resumed from another byte.`);
      }
      return response.body.getReader();
    }
    if (response.status === 200 && response.body) {
      return (resuming ? skipping(response.body, received) : response.body).getReader();
    }
    await response.body?.cancel();
    const failure = `${file.name} could not be downloaded (${response.status}).`;
    throw isWorthRetrying(response.status) ? new FileDownloadError(failure) : new Refused(failure);
  }

  const giveUp = (error: Error): Error => {
    options.onGiveUp?.(error);
    return error;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        try {
          reader ??= await open();
          const { done, value } = await reader.read();
          if (done) {
            // A connection that closes before the last byte is a dropped one.
            if (received < file.size) throw new FileDownloadError(`${file.name}: the connection closed early.`);
            controller.close();
            return;
          }
          received += value.byteLength;
          failures = 0;
          controller.enqueue(value);
          return;
        } catch (error) {
          reader = null;
          if (error instanceof Refused) throw giveUp(error);
          failures += 1;
          if (failures > retries) {
            throw giveUp(
              new FileDownloadError(`${file.name} could not be downloaded: the connection failed ${failures} times in a row.`, {
                cause: error,
              }),
            );
          }
          await sleep(pauseMs(failures));
        }
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}
