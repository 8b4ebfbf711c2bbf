import { type TransferProgress, TransferProgressMeter } from '../../../lib/uploads/upload-progress';

export type FilePhase = 'waiting' | 'sending' | 'finalizing' | 'done' | 'failed';

export interface FileProgress {
  readonly sentBytes: number;
  readonly totalBytes: number;
  readonly phase: FilePhase;
}

/** Where the send is: the steps before and after the bytes travel are quick, the upload is not. */
export type SendPhase = 'preparing' | 'uploading' | 'finalizing';

export interface SendSnapshot {
  readonly phase: SendPhase;
  /** By the picked file's key. */
  readonly files: ReadonlyMap<string, FileProgress>;
  readonly total: TransferProgress;
}

/** Progress events come by the hundred per second; the page redraws at most this often (and at once for a phase change). */
export const REDRAW_EVERY_MS = 150;

const EMPTY_TOTAL: TransferProgress = {
  sentBytes: 0,
  totalBytes: 0,
  fraction: 0,
  bytesPerSecond: undefined,
  secondsLeft: undefined,
};

/**
 * The progress of one send, as a store for useSyncExternalStore: the send writes into it, the
 * page reads snapshots. A snapshot is made at most every REDRAW_EVERY_MS, so a fast upload costs
 * a few renders a second, not one per progress event.
 */
export class SendProgressStore {
  private readonly meter = new TransferProgressMeter();
  private readonly files = new Map<string, FileProgress>();
  private phase: SendPhase = 'preparing';
  private total: TransferProgress = EMPTY_TOTAL;
  private snapshot: SendSnapshot;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;

  constructor(files: readonly { key: string; size: number }[], now: () => number = () => performance.now()) {
    this.now = now;
    for (const file of files) this.files.set(file.key, { sentBytes: 0, totalBytes: file.size, phase: 'waiting' });
    for (const [key, file] of this.files) this.total = this.meter.update(key, file, this.now());
    this.snapshot = this.makeSnapshot();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SendSnapshot => this.snapshot;

  setPhase(phase: SendPhase): void {
    this.phase = phase;
    this.flush();
  }

  /** One file's bytes; `phase` 'done' and 'failed' are drawn at once. */
  updateFile(key: string, progress: Partial<FileProgress>): void {
    const before = this.files.get(key);
    if (!before) return;
    const next = { ...before, ...progress };
    if (next.phase === 'done') next.sentBytes = next.totalBytes;
    this.files.set(key, next);
    this.total = this.meter.update(key, next, this.now());
    if (next.phase === 'done' || next.phase === 'failed' || next.phase !== before.phase) this.flush();
    else this.schedule();
  }

  /** Stops the pending redraw (the send is over). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.publish();
    }, REDRAW_EVERY_MS);
  }

  private flush(): void {
    this.dispose();
    this.publish();
  }

  private publish(): void {
    this.snapshot = this.makeSnapshot();
    for (const listener of this.listeners) listener();
  }

  private makeSnapshot(): SendSnapshot {
    return { phase: this.phase, files: new Map(this.files), total: this.total };
  }
}
