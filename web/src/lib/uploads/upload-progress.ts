/**
 * Upload progress as plain arithmetic: no clock, no I/O, no DOM, so the upload client, the page
 * and the tests share it as it is. Times are milliseconds passed in by the caller.
 */

/** Speed is measured over the last few seconds: long enough to smooth bursts, short enough to follow a change of network. */
export const SPEED_WINDOW_MS = 5_000;
/** Below this much history a speed would be noise (one progress event), so none is given. */
export const MIN_SPEED_SPAN_MS = 500;

/**
 * Bytes of one file sent so far: finished parts plus the parts in flight. A part in flight may be
 * rolled back (its request failed and will be sent again), which is the only way the sum falls.
 */
export class SentBytes {
  readonly totalBytes: number;
  private readonly byPart = new Map<number, number>();
  private sum = 0;

  constructor(totalBytes: number) {
    this.totalBytes = totalBytes;
  }

  get sentBytes(): number {
    return Math.min(this.sum, this.totalBytes);
  }

  /** Part `partNumber` has `bytes` of its body sent (in flight or done); never counts more than its size. */
  setPart(partNumber: number, bytes: number, partBytes: number = bytes): void {
    const next = Math.max(0, Math.min(bytes, partBytes));
    this.sum += next - (this.byPart.get(partNumber) ?? 0);
    this.byPart.set(partNumber, next);
  }

  /** The part's request failed: what it had sent no longer counts. */
  resetPart(partNumber: number): void {
    this.sum -= this.byPart.get(partNumber) ?? 0;
    this.byPart.delete(partNumber);
  }
}

/** Bytes of `partBytes` a request body has sent, when the body (a form, say) is bigger than the bytes it carries. */
export function scaledBytes(loaded: number, total: number, partBytes: number): number {
  if (!(total > 0)) return 0;
  return Math.round(partBytes * Math.min(1, Math.max(0, loaded / total)));
}

export interface FileBytes {
  readonly sentBytes: number;
  readonly totalBytes: number;
}

export interface TransferBytes extends FileBytes {
  /** 0 to 1; 1 for a transfer of empty files. */
  readonly fraction: number;
}

/** A whole transfer's progress: the sum of its files'. */
export function sumProgress(files: readonly FileBytes[]): TransferBytes {
  let sentBytes = 0;
  let totalBytes = 0;
  for (const file of files) {
    sentBytes += Math.min(file.sentBytes, file.totalBytes);
    totalBytes += file.totalBytes;
  }
  return { sentBytes, totalBytes, fraction: totalBytes > 0 ? sentBytes / totalBytes : 1 };
}

export interface ProgressSample {
  readonly atMs: number;
  readonly sentBytes: number;
}

/**
 * The samples that still matter after `sample`: those within the window, and the newest one older
 * than it, so that the window spans its whole length once enough time has passed.
 */
export function addSample(
  samples: readonly ProgressSample[],
  sample: ProgressSample,
  windowMs: number = SPEED_WINDOW_MS,
): ProgressSample[] {
  const all = [...samples.filter((kept) => kept.atMs <= sample.atMs), sample];
  const start = sample.atMs - windowMs;
  let firstKept = all.findIndex((kept) => kept.atMs >= start);
  if (firstKept > 0 && all[firstKept]!.atMs > start) firstKept -= 1;
  return all.slice(Math.max(0, firstKept));
}

/** Bytes per second over the samples, or undefined until they span enough time. Never negative (a retry's rollback is not negative speed). */
export function bytesPerSecond(samples: readonly ProgressSample[]): number | undefined {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return undefined;
  const spanMs = last.atMs - first.atMs;
  if (spanMs < MIN_SPEED_SPAN_MS) return undefined;
  return Math.max(0, ((last.sentBytes - first.sentBytes) * 1000) / spanMs);
}

/** Seconds left at the current speed, rounded up; undefined while the speed is unknown or zero. */
export function secondsLeft(remainingBytes: number, speed: number | undefined): number | undefined {
  if (remainingBytes <= 0) return 0;
  if (speed === undefined || !(speed > 0)) return undefined;
  return Math.ceil(remainingBytes / speed);
}

export interface TransferProgress extends TransferBytes {
  /** Undefined until a speed can be told (see MIN_SPEED_SPAN_MS). */
  readonly bytesPerSecond: number | undefined;
  readonly secondsLeft: number | undefined;
}

/**
 * A transfer's progress for a page: feed it each file's progress as it comes, read the sum, the
 * speed over the last few seconds and the time left. Holds a few samples, nothing else.
 */
export class TransferProgressMeter {
  private readonly files = new Map<string, FileBytes>();
  private samples: ProgressSample[] = [];
  private readonly windowMs: number;

  constructor(windowMs: number = SPEED_WINDOW_MS) {
    this.windowMs = windowMs;
  }

  /** Records one file's bytes at `atMs` (the caller's clock) and answers the transfer's progress. */
  update(fileId: string, bytes: FileBytes, atMs: number): TransferProgress {
    this.files.set(fileId, { sentBytes: bytes.sentBytes, totalBytes: bytes.totalBytes });
    return this.read(atMs);
  }

  /** Stops counting a file (removed from the transfer, or its upload cancelled). */
  remove(fileId: string, atMs: number): TransferProgress {
    this.files.delete(fileId);
    // The sum jumps down: speed restarts from here rather than reading the jump as a stall.
    this.samples = [];
    return this.read(atMs);
  }

  private read(atMs: number): TransferProgress {
    const total = sumProgress([...this.files.values()]);
    this.samples = addSample(this.samples, { atMs, sentBytes: total.sentBytes }, this.windowMs);
    const speed = bytesPerSecond(this.samples);
    return { ...total, bytesPerSecond: speed, secondsLeft: secondsLeft(total.totalBytes - total.sentBytes, speed) };
  }
}
