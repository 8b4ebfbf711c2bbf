/**
 * The product's upload client: sends a file straight from the sender's machine to S3 through the
 * target the files API gave its record, a presigned POST up to 16 MiB (signed again when it ran
 * out while the file waited for its turn) or a multipart upload above it (parts signed in
 * batches, sent a few at a time, retried one by one, resumed from the parts S3 already holds),
 * then asks the server to finalize. It runs in the browser and in Node alike.
 *
 * Our own rather than Uppy's S3 plugin: the benchmark runs it in Node, it follows our routes (the
 * server lists the parts and completes the upload itself, so no ETag has to reach the page), and
 * it adds a few kB to the first-load JavaScript rather than a framework.
 */
import type { FileView, UploadingFile, UploadTarget } from '@shared/schemas/transfers';
import { partCountFor, partRange, partSizeFor } from '@shared/transfers/upload-sizing';
import { SentBytes, scaledBytes } from './upload-progress';
import { TransportNetworkError, type TransportRequest, type TransportResponse, type UploadTransport } from './upload-transport';

/** The file to send: a browser File, or in Node a File (or an fs.openAsBlob Blob given a name). */
export type UploadSource = Blob & { readonly name: string; readonly lastModified?: number };

/** Answer of POST /api/i/file/file/{id}/mod/upload/parts: presigned PUT urls for parts. */
export interface SignedParts {
  readonly parts: readonly { readonly partNumber: number; readonly url: string }[];
  readonly expiresAt: string;
}

/** Answer of GET /api/i/file/file/{id}/mod/upload/parts: the parts S3 already holds. */
export interface UploadedParts {
  readonly parts: readonly { readonly partNumber: number; readonly size: number; readonly etag: string }[];
}

/**
 * The files API as the client needs it; the web wires these to its API modules, tests to fakes.
 * An error with a numeric `status` (the web's ApiError has one) is retried when it is 5xx, 429 or
 * 408 and fails the upload otherwise; an error without one is retried when it is a network failure
 * (fetch's TypeError). `abort` is never called by the client: cancelling only stops the sending,
 * and the caller decides whether the server should drop the parts.
 */
export interface UploadApi {
  /** A new presigned POST for a single-upload file (POST /api/i/file/file/{id}/mod/upload/form). */
  signForm(fileId: string, signal?: AbortSignal): Promise<{ readonly upload: UploadTarget }>;
  signParts(fileId: string, partNumbers: readonly number[], signal?: AbortSignal): Promise<SignedParts>;
  listParts(fileId: string, signal?: AbortSignal): Promise<UploadedParts>;
  finalize(fileId: string, signal?: AbortSignal): Promise<{ file: FileView }>;
  abort(fileId: string, signal?: AbortSignal): Promise<unknown>;
}

export interface FileUploadProgress {
  readonly fileId: string;
  /** Bytes S3 has received, parts in flight included; falls back only when a failed part is sent again. */
  readonly sentBytes: number;
  readonly totalBytes: number;
  /** 'finalizing' once every byte is sent and the server is checking (and assembling) the object. */
  readonly phase: 'sending' | 'finalizing';
}

export interface RetryPolicy {
  /** Tries per request, the first included. */
  readonly attempts: number;
  /** The wait before the first retry; each next one doubles, up to maxDelayMs, then jittered. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 500, maxDelayMs: 15_000 };
export const DEFAULT_CONCURRENCY = 4;
/** At most this many parts per sign-parts call (the route's limit). */
export const SIGN_BATCH_SIZE = 100;
/** A url from an earlier batch, or a form that waited for its turn, is signed again when it has less than this left. */
export const RENEW_URL_BEFORE_MS = 5 * 60_000;

export interface UploadFileOptions {
  readonly file: UploadSource;
  /** The server's record and upload target (createBRecord's answer). */
  readonly uploading: UploadingFile;
  readonly api: UploadApi;
  /** xhrTransport in the browser, nodeTransport (upload-transport-node.ts) in Node. */
  readonly transport: UploadTransport;
  /** Parts in flight at once (default 4). */
  readonly concurrency?: number;
  /** Aborting it stops every request in flight; uploadFile then rejects with UploadCancelled. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: FileUploadProgress) => void;
  readonly retry?: Partial<RetryPolicy> & {
    /** Waits between attempts (tests make it instant); must reject when the signal aborts. */
    readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
    /** 0 to 1, for the jitter. */
    readonly random?: () => number;
  };
  /** The clock url expiry is judged by (ms since the epoch). */
  readonly now?: () => number;
}

/** The upload failed for good: `status` and `code` say what S3 (or the API) answered, when it answered. */
export class UploadFailed extends Error {
  override readonly name = 'UploadFailed';
  readonly fileId: string | undefined;
  readonly status: number | undefined;
  /** S3's XML error code (EntityTooLarge, AccessDenied, ...) or the API's error code. */
  readonly code: string | undefined;
  readonly partNumber: number | undefined;

  constructor(
    message: string,
    details: { fileId?: string; status?: number; code?: string; partNumber?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.fileId = details.fileId;
    this.status = details.status;
    this.code = details.code;
    this.partNumber = details.partNumber;
  }
}

/** The caller's signal aborted the upload; `cause` is the signal's reason. */
export class UploadCancelled extends Error {
  override readonly name = 'UploadCancelled';
  readonly fileId: string;

  constructor(fileId: string, reason?: unknown) {
    super('The upload was cancelled.', reason === undefined ? undefined : { cause: reason });
    this.fileId = fileId;
  }
}

/** The wait before retry number `retry` (1 for the first): exponential, capped, then "equal jitter" (half fixed, half random). */
export function backoffDelayMs(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = DEFAULT_RETRY,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

/** S3's error code and message from its XML error body. */
export function parseS3Error(body: string): { code: string | undefined; message: string | undefined } {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1]?.trim();
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1]?.trim();
  return { code: code || undefined, message: message || undefined };
}

export interface PickedFile {
  readonly name: string;
  readonly size: number;
  readonly lastModified: number;
}

export interface ResumableMatch<P extends PickedFile> {
  readonly picked: P;
  /** The pending server file this picked file resumes; null when it needs a new record. */
  readonly resume: FileView | null;
}

/**
 * Pairs each picked file with a pending server file of the same name, size and last-modified time
 * (each server file at most once), so the page resumes it rather than creating a new record. Only
 * multipart files can resume: a pending single-POST file's presigned form is gone with the page
 * that had it (and such a file is at most 16 MiB, quicker to send again than to resume).
 */
export function matchResumableFiles<P extends PickedFile>(
  picked: readonly P[],
  pending: readonly FileView[],
): ResumableMatch<P>[] {
  const candidates = pending.filter(
    (file) => file.status === 'pending' && file.uploadMethod === 'multipart' && file.lastModified !== null,
  );
  const taken = new Set<string>();
  return picked.map((one) => {
    const match = candidates.find(
      (file) => !taken.has(file.id) && file.name === one.name && file.size === one.size && file.lastModified === one.lastModified,
    );
    if (match) taken.add(match.id);
    return { picked: one, resume: match ?? null };
  });
}

/** The upload target of a pending multipart file, for resuming it: the part size the server chose by the shared sizing rule. */
export function resumingUpload(file: FileView): UploadingFile {
  const partSize = partSizeFor(file.size);
  return { file, upload: { method: 'multipart', partSize, partCount: partCountFor(file.size, partSize) } };
}

/** Sends the file and finalizes it; resolves with the ready file. Rejects with UploadFailed or UploadCancelled. */
export async function uploadFile(options: UploadFileOptions): Promise<FileView> {
  const fileId = options.uploading.file.id;
  if (options.signal?.aborted) throw new UploadCancelled(fileId, options.signal.reason);
  const upload = new Upload(options);
  try {
    return await upload.run();
  } catch (error) {
    if (options.signal?.aborted) throw new UploadCancelled(fileId, options.signal.reason);
    if (error instanceof UploadFailed) throw error;
    throw new UploadFailed(`The upload of "${options.file.name}" failed: ${messageOf(error)}`, { fileId, cause: error });
  } finally {
    upload.dispose();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isNetworkFailure(error: unknown): boolean {
  // fetch rejects with a TypeError when no answer comes; our transports with TransportNetworkError.
  return error instanceof TransportNetworkError || error instanceof TypeError;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Statuses worth another try whatever the request: the server's trouble, throttling, a timeout. */
function isTransientStatus(status: number, code?: string): boolean {
  // S3 answers 400 RequestTimeout when the body stalled: sending it again is the cure.
  return status >= 500 || status === 429 || status === 408 || (status === 400 && code === 'RequestTimeout');
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A presigned POST form as the upload holds it. */
interface SignedForm {
  url: string;
  fields: Record<string, string>;
  expiresAtMs: number;
  /** Signed just now: tried once whatever our clock says of its expiry, as a part's url is. */
  unused: boolean;
}

interface PartUrl {
  url: string;
  expiresAtMs: number;
  /**
   * Signed just now for the part that asked: tried once whatever our clock says of its expiry, so
   * a skewed clock costs sign calls, never a stuck upload. Its batch-mates are judged by the clock.
   */
  unused: boolean;
}

/** One file's upload: the state the parts share (progress, urls, the first failure). */
class Upload {
  private readonly file: UploadSource;
  private readonly uploading: UploadingFile;
  private readonly fileId: string;
  private readonly api: UploadApi;
  private readonly transport: UploadTransport;
  private readonly concurrency: number;
  private readonly policy: RetryPolicy;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly onProgress: ((progress: FileUploadProgress) => void) | undefined;
  private readonly callerSignal: AbortSignal | undefined;
  /** Aborted by the caller's signal or by the first part that fails for good, stopping the others. */
  private readonly controller = new AbortController();
  private readonly bytes: SentBytes;
  private lastReported = -1;
  private readonly urls = new Map<number, PartUrl>();
  private signing: Promise<void> | undefined;
  /** Parts not yet taken by a worker, in order: the next sign batch is drawn from them. */
  private queue: number[] = [];
  private readonly forwardAbort = () => this.controller.abort(this.callerSignal?.reason);

  constructor(options: UploadFileOptions) {
    this.file = options.file;
    this.uploading = options.uploading;
    this.fileId = options.uploading.file.id;
    this.api = options.api;
    this.transport = options.transport;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
    this.policy = {
      attempts: Math.max(1, Math.floor(options.retry?.attempts ?? DEFAULT_RETRY.attempts)),
      baseDelayMs: options.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: options.retry?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    };
    this.sleep = options.retry?.sleep ?? defaultSleep;
    this.random = options.retry?.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.onProgress = options.onProgress;
    this.callerSignal = options.signal;
    this.bytes = new SentBytes(options.file.size);
    this.callerSignal?.addEventListener('abort', this.forwardAbort, { once: true });
  }

  dispose(): void {
    this.callerSignal?.removeEventListener('abort', this.forwardAbort);
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  async run(): Promise<FileView> {
    const declared = this.uploading.file.size;
    if (this.file.size !== declared) {
      throw new UploadFailed(
        `"${this.file.name}" is ${this.file.size} bytes now but was ${declared} bytes when it was added: add it again.`,
        { fileId: this.fileId },
      );
    }
    const target = this.uploading.upload;
    if (target.method === 'post') {
      await this.sendForm({ url: target.url, fields: target.fields, expiresAtMs: Date.parse(target.expiresAt), unused: false });
    } else await this.sendParts(target.partSize, target.partCount);
    this.report('finalizing');
    const { file } = await this.callApi('Finalizing the upload', (signal) => this.api.finalize(this.fileId, signal));
    return file;
  }

  private report(phase: FileUploadProgress['phase'] = 'sending'): void {
    const sentBytes = this.bytes.sentBytes;
    if (phase === 'sending' && sentBytes === this.lastReported) return;
    this.lastReported = sentBytes;
    this.onProgress?.({ fileId: this.fileId, sentBytes, totalBytes: this.bytes.totalBytes, phase });
  }

  private retryDelay(retry: number): number {
    return backoffDelayMs(retry, this.policy, this.random);
  }

  /**
   * The single presigned POST: the policy's fields in their order, the file last (S3 ignores
   * fields after it). A form about to run out (the file waited behind others for its turn) is
   * signed again first; one refused with 403 is signed again once, as that is most often a form
   * that ran out by S3's clock: refused again, it is not the clock, and the upload fails.
   */
  private async sendForm(initial: SignedForm): Promise<void> {
    const size = this.file.size;
    let signed = initial;
    let signedAfterRefusal = false;
    for (let attempt = 1; ; attempt += 1) {
      if (!signed.unused && !(signed.expiresAtMs - this.now() > RENEW_URL_BEFORE_MS)) signed = await this.signForm();
      signed.unused = false;
      const form = new FormData();
      for (const [name, value] of Object.entries(signed.fields)) form.append(name, value);
      form.append('file', this.file, this.file.name);
      const failure = await this.attempt(
        {
          method: 'POST',
          url: signed.url,
          body: form,
          signal: this.signal,
          onProgress: (sent, total) => this.setPart(1, scaledBytes(sent, total, size), size),
        },
        undefined,
      );
      if (!failure) {
        this.setPart(1, size, size);
        return;
      }
      this.bytes.resetPart(1);
      this.report();
      const signAgain = failure.error.status === 403 && !signedAfterRefusal;
      if (!(failure.retryable || signAgain) || attempt >= this.policy.attempts) throw this.finalFailure(failure.error, attempt);
      if (signAgain) {
        signedAfterRefusal = true;
        signed = await this.signForm();
      }
      await this.sleep(this.retryDelay(attempt), this.signal);
    }
  }

  private async signForm(): Promise<SignedForm> {
    const { upload } = await this.callApi('Signing the upload form', (signal) => this.api.signForm(this.fileId, signal));
    if (upload.method !== 'post') {
      throw new UploadFailed(`The server gave no upload form for "${this.file.name}".`, { fileId: this.fileId });
    }
    return { url: upload.url, fields: upload.fields, expiresAtMs: Date.parse(upload.expiresAt), unused: true };
  }

  private async sendParts(partSize: number, partCount: number): Promise<void> {
    const size = this.file.size;
    if (!(partSize > 0) || partCountFor(size, partSize) !== partCount) {
      throw new UploadFailed(
        `The upload target does not fit "${this.file.name}" (${partCount} parts of ${partSize} bytes for ${size} bytes).`,
        {
          fileId: this.fileId,
        },
      );
    }
    const held = await this.callApi('Reading the parts already sent', (signal) => this.api.listParts(this.fileId, signal));
    const heldSizes = new Map(held.parts.map((part) => [part.partNumber, part.size]));
    const missing: number[] = [];
    for (let partNumber = 1; partNumber <= partCount; partNumber += 1) {
      const { start, end } = partRange(size, partSize, partNumber);
      // A part S3 holds at the right size is done; one of another size is sent again (S3 replaces it).
      if (heldSizes.get(partNumber) === end - start) this.bytes.setPart(partNumber, end - start);
      else missing.push(partNumber);
    }
    this.report();
    this.queue = missing;
    let failure: { error: unknown } | undefined;
    const worker = async () => {
      while (!failure && !this.signal.aborted) {
        const partNumber = this.queue.shift();
        if (partNumber === undefined) return;
        try {
          await this.sendPart(partNumber, partRange(size, partSize, partNumber));
        } catch (error) {
          if (!failure) {
            failure = { error };
            // Stop the other parts at once: the upload has failed (or was cancelled).
            this.controller.abort(error);
          }
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, missing.length) }, worker));
    if (failure) throw failure.error;
    if (this.signal.aborted) throw this.signal.reason;
  }

  private async sendPart(partNumber: number, range: { start: number; end: number }): Promise<void> {
    const partBytes = range.end - range.start;
    for (let attempt = 1; ; attempt += 1) {
      const url = await this.urlFor(partNumber);
      const failure = await this.attempt(
        {
          method: 'PUT',
          url,
          body: this.file.slice(range.start, range.end),
          signal: this.signal,
          onProgress: (sent, total) => this.setPart(partNumber, scaledBytes(sent, total, partBytes), partBytes),
        },
        partNumber,
      );
      if (!failure) {
        this.setPart(partNumber, partBytes, partBytes);
        return;
      }
      this.bytes.resetPart(partNumber);
      this.report();
      if (!failure.retryable || attempt >= this.policy.attempts) throw this.finalFailure(failure.error, attempt);
      // 403 from a presigned url is most often an expired one: sign it again before the retry.
      if (failure.error.status === 403) this.urls.delete(partNumber);
      await this.sleep(this.retryDelay(attempt), this.signal);
    }
  }

  private setPart(partNumber: number, bytes: number, partBytes: number): void {
    this.bytes.setPart(partNumber, bytes, partBytes);
    this.report();
  }

  /** One request; undefined when S3 accepted it, else why not and whether another try may help. */
  private async attempt(
    request: TransportRequest,
    partNumber: number | undefined,
  ): Promise<{ error: UploadFailed; retryable: boolean } | undefined> {
    const what = partNumber === undefined ? `"${this.file.name}"` : `part ${partNumber} of "${this.file.name}"`;
    let answer: TransportResponse;
    try {
      answer = await this.transport.send(request);
    } catch (error) {
      if (this.signal.aborted || !isNetworkFailure(error)) throw error;
      return {
        error: new UploadFailed(`Sending ${what} failed: ${messageOf(error)}`, { fileId: this.fileId, partNumber, cause: error }),
        retryable: true,
      };
    }
    if (answer.status >= 200 && answer.status < 300) return undefined;
    const { code, message } = parseS3Error(answer.body);
    const error = new UploadFailed(
      `S3 refused ${what}: ${answer.status}${code ? ` ${code}` : ''}${message ? ` (${message})` : ''}.`,
      { fileId: this.fileId, status: answer.status, code, partNumber },
    );
    const resignable = partNumber !== undefined && answer.status === 403;
    return { error, retryable: resignable || isTransientStatus(answer.status, code) };
  }

  private finalFailure(error: UploadFailed, attempts: number): UploadFailed {
    if (attempts <= 1) return error;
    return new UploadFailed(`${error.message} Gave up after ${attempts} tries.`, {
      fileId: this.fileId,
      status: error.status,
      code: error.code,
      partNumber: error.partNumber,
      cause: error.cause,
    });
  }

  /** A call to the files API, retried when it failed for a passing reason. */
  private async callApi<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call(this.signal);
      } catch (error) {
        if (this.signal.aborted) throw error;
        const status = statusOf(error);
        const code = codeOf(error);
        const transient = status === undefined ? isNetworkFailure(error) : isTransientStatus(status, code);
        if (!transient || attempt >= this.policy.attempts) {
          const tries = attempt > 1 ? ` Gave up after ${attempt} tries.` : '';
          throw new UploadFailed(`${what} failed${status === undefined ? '' : ` (${status})`}: ${messageOf(error)}.${tries}`, {
            fileId: this.fileId,
            status,
            code,
            cause: error,
          });
        }
        await this.sleep(this.retryDelay(attempt), this.signal);
      }
    }
  }

  /** A url for the part: one from an earlier batch while it is fresh, else a new batch signed for it and the parts next in line. */
  private async urlFor(partNumber: number): Promise<string> {
    let signedForThisPart = false;
    for (;;) {
      const known = this.urls.get(partNumber);
      if (known && (known.unused || known.expiresAtMs - this.now() > RENEW_URL_BEFORE_MS)) {
        known.unused = false;
        return known.url;
      }
      if (this.signing) {
        // One sign call at a time: the one in flight may well cover this part.
        await this.signing;
        continue;
      }
      if (signedForThisPart) {
        throw new UploadFailed(`The server did not sign part ${partNumber} of "${this.file.name}".`, {
          fileId: this.fileId,
          partNumber,
        });
      }
      signedForThisPart = true;
      this.signing = this.signBatch(partNumber).finally(() => {
        this.signing = undefined;
      });
      await this.signing;
    }
  }

  private async signBatch(partNumber: number): Promise<void> {
    const now = this.now();
    const stale = (part: number) => {
      const known = this.urls.get(part);
      return !known || (!known.unused && known.expiresAtMs - now <= RENEW_URL_BEFORE_MS);
    };
    const batch = [partNumber, ...this.queue.filter((part) => part !== partNumber && stale(part))].slice(0, SIGN_BATCH_SIZE);
    const signed = await this.callApi('Signing the parts', (signal) => this.api.signParts(this.fileId, batch, signal));
    const expiresAtMs = Date.parse(signed.expiresAt);
    for (const part of signed.parts) {
      this.urls.set(part.partNumber, { url: part.url, expiresAtMs, unused: part.partNumber === partNumber });
    }
  }
}
