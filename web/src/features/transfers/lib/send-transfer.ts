import type { FileView, UploadingFile } from '@shared/schemas/transfers';
import type { FinalizeAnswer, TransferDelivery, TransferSummary } from '@shared/schemas/transfers';
import { CREATE_FILES_BATCH, type DeclaredFile } from '../api/create-files';
import type { SendProgressStore } from './send-progress';
import {
  matchResumableFiles,
  resumingUpload,
  type UploadApi,
  UploadCancelled,
  type UploadFileOptions,
} from '../../../lib/uploads/upload-client';
import type { UploadTransport } from '../../../lib/uploads/upload-transport';

/** Files sent at once; each sends its own parts in parallel too. */
export const FILES_AT_ONCE = 3;

/** A resumed draft's password, left as it is: the page never knew it (the server keeps only its hash). */
export const KEEP_PASSWORD: unique symbol = Symbol('keep the password');

/** A file the sender picked, with the key that tells it from the others (and finds it again to resume). */
export interface PickedFile {
  readonly key: string;
  readonly file: File;
}

export function pickedKey(file: Pick<File, 'name' | 'size' | 'lastModified'>): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

export type UploadFn = (options: UploadFileOptions) => Promise<FileView>;

/** What the send calls: the API modules in the page, fakes in tests. */
export interface SendDeps {
  createTransfer(body: {
    title: string;
    message: string;
    expiresInDays: number;
    delivery: TransferDelivery;
    downloadLimit?: number;
    password?: string;
  }): Promise<TransferSummary>;
  /** Sets (or removes: null) the password of a draft made earlier (a retry, a resumed draft) when the form's differs. */
  setPassword(transferId: string, password: string | null): Promise<TransferSummary>;
  /** Chooses a draft's delivery and download limit again, when the form's differ from the draft's. */
  setDelivery(transferId: string, delivery: TransferDelivery, downloadLimit: number | null): Promise<TransferSummary>;
  addRecipient(transferId: string, email: string): Promise<unknown>;
  createFiles(transferId: string, files: readonly DeclaredFile[]): Promise<{ files: UploadingFile[] }>;
  finalizeTransfer(transferId: string): Promise<FinalizeAnswer>;
  recordTiming(transferId: string, elapsedMs: number): Promise<unknown>;
  abortUpload(fileId: string): Promise<unknown>;
  deleteFile(fileId: string): Promise<unknown>;
  upload: UploadFn;
  uploadApi: UploadApi;
  transport: UploadTransport;
  /** The clock the timing is measured with (ms). */
  now(): number;
}

export interface SendInput {
  readonly title: string;
  readonly message: string;
  readonly expiresInDays: number;
  /** 'link' needs no recipient: the sent transfer carries a link to share. */
  readonly delivery: TransferDelivery;
  readonly downloadLimit: number | null;
  /**
   * Pro only: recipients must enter it to open the package. Empty, null or absent: none, removing
   * one the draft has; KEEP_PASSWORD: whatever the draft has (a resumed draft's, left as it is).
   */
  readonly password?: string | null | typeof KEEP_PASSWORD | undefined;
  readonly recipients: readonly string[];
  readonly files: readonly PickedFile[];
  /** When Send was pressed, on deps.now()'s clock. */
  readonly startedAt: number;
  readonly progress: SendProgressStore;
  readonly signal?: AbortSignal;
}

/**
 * What a send has done on the server so far. The page keeps it across tries, so pressing Send
 * again after a failure carries on (same draft, recipients and file records) rather than
 * starting over; a resumed draft starts from what the server holds.
 */
export class SendSession {
  transfer: TransferSummary | null;
  /** The password the draft was given here (never read back: the server keeps only its hash). */
  password: string | null | undefined;
  readonly recipients = new Set<string>();
  /** Server records of picked files, by key. */
  readonly records = new Map<string, UploadingFile>();
  /** Picked files whose bytes the server holds and checked. */
  readonly ready = new Set<string>();
  /** The resumed draft's files not yet paired with a picked file. */
  private unclaimed: FileView[];

  constructor(resume?: { transfer: TransferSummary; files: readonly FileView[]; recipients: readonly string[] }) {
    this.transfer = resume?.transfer ?? null;
    for (const email of resume?.recipients ?? []) this.recipients.add(email.toLowerCase());
    this.unclaimed = [...(resume?.files ?? [])];
  }

  /** Pairs picked files with the draft's files: ready ones are done, pending multipart ones resume. */
  claim(files: readonly PickedFile[]): void {
    const open = files.filter(({ key }) => !this.records.has(key) && !this.ready.has(key));
    const waiting: PickedFile[] = [];
    for (const picked of open) {
      const index = this.unclaimed.findIndex(
        (server) =>
          server.status === 'ready' &&
          server.name === picked.file.name &&
          server.size === picked.file.size &&
          server.lastModified === picked.file.lastModified,
      );
      if (index < 0) {
        waiting.push(picked);
        continue;
      }
      const [server] = this.unclaimed.splice(index, 1);
      if (server) this.records.set(picked.key, resumingUpload(server));
      this.ready.add(picked.key);
    }
    const matches = matchResumableFiles(
      waiting.map((picked) => ({
        picked,
        name: picked.file.name,
        size: picked.file.size,
        lastModified: picked.file.lastModified,
      })),
      this.unclaimed,
    );
    for (const { picked, resume } of matches) {
      if (!resume) continue;
      this.unclaimed = this.unclaimed.filter((file) => file.id !== resume.id);
      this.records.set(picked.picked.key, resumingUpload(resume));
    }
  }

  /** Draft files nobody picked again that would stop the send: pending ones (their upload never ended). */
  takeStalePending(): FileView[] {
    const stale = this.unclaimed.filter((file) => file.status === 'pending');
    this.unclaimed = this.unclaimed.filter((file) => file.status !== 'pending');
    return stale;
  }

  /** Ready files of the resumed draft that go with it though not picked again. */
  get keptFiles(): readonly FileView[] {
    return this.unclaimed.filter((file) => file.status === 'ready');
  }
}

/**
 * Runs `run` over `items` in order, at most `limit` at a time. The first failure aborts the
 * others (through the signal `run` is given) and is what the pool rejects with.
 */
async function inPool<T>(
  items: readonly T[],
  limit: number,
  outer: AbortSignal | undefined,
  run: (item: T, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  outer?.addEventListener('abort', forward, { once: true });
  const queue = [...items];
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && !controller.signal.aborted) {
      const item = queue.shift();
      if (item === undefined) return;
      try {
        await run(item, controller.signal);
      } catch (error) {
        if (!failure) {
          failure = { error };
          controller.abort(error);
        }
        return;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  } finally {
    outer?.removeEventListener('abort', forward);
  }
  if (failure) throw failure.error;
}

/**
 * The whole send, in the order the server needs it: create the draft, add each recipient, create
 * the file records (50 per call), upload every file (three at a time), finalize, then report how
 * long it took from the click. Resolves with the sent transfer. Anything the server refuses
 * rejects with its error; what was done stays in `session` for the next try.
 */
export async function sendTransfer(input: SendInput, deps: SendDeps, session: SendSession): Promise<FinalizeAnswer> {
  const { progress, signal } = input;
  const stopIfCancelled = () => signal?.throwIfAborted();
  progress.setPhase('preparing');

  const password = input.password === KEEP_PASSWORD ? KEEP_PASSWORD : input.password || null;
  if (!session.transfer) {
    session.transfer = await deps.createTransfer({
      title: input.title.trim(),
      message: input.message.trim(),
      expiresInDays: input.expiresInDays,
      delivery: input.delivery,
      ...(input.downloadLimit === null ? {} : { downloadLimit: input.downloadLimit }),
      ...(typeof password === 'string' ? { password } : {}),
    });
    session.password = typeof password === 'string' ? password : null;
  }
  const transferId = session.transfer.id;
  // A draft made by an earlier try (or resumed) holds what it was made with: the form's choice now wins.
  if (session.transfer.delivery !== input.delivery || session.transfer.downloadLimit !== input.downloadLimit) {
    session.transfer = await deps.setDelivery(transferId, input.delivery, input.downloadLimit);
  }
  const passwordChanged =
    password === null
      ? session.transfer.passwordProtected === true
      : typeof password === 'string' && password !== session.password;
  if (passwordChanged && password !== KEEP_PASSWORD) {
    session.transfer = await deps.setPassword(transferId, password);
    session.password = password;
  }
  stopIfCancelled();

  for (const email of input.recipients) {
    const key = email.toLowerCase();
    if (session.recipients.has(key)) continue;
    await deps.addRecipient(transferId, email);
    session.recipients.add(key);
    stopIfCancelled();
  }

  // Records made for files since removed from the form would stop finalize: they go first.
  const picked = new Set(input.files.map(({ key }) => key));
  for (const [key, record] of [...session.records]) {
    if (picked.has(key)) continue;
    if (session.ready.has(key)) await deps.deleteFile(record.file.id);
    else await deps.abortUpload(record.file.id);
    session.records.delete(key);
    session.ready.delete(key);
  }

  session.claim(input.files);
  for (const stale of session.takeStalePending()) await deps.abortUpload(stale.id);

  const toCreate = input.files.filter(({ key }) => !session.records.has(key));
  for (let start = 0; start < toCreate.length; start += CREATE_FILES_BATCH) {
    const batch = toCreate.slice(start, start + CREATE_FILES_BATCH);
    const { files } = await deps.createFiles(
      transferId,
      batch.map(({ file }) => ({ name: file.name, size: file.size, type: file.type, lastModified: file.lastModified })),
    );
    batch.forEach((one, index) => {
      const record = files[index];
      if (record) session.records.set(one.key, record);
    });
    stopIfCancelled();
  }

  for (const key of session.ready) progress.updateFile(key, { phase: 'done' });
  progress.setPhase('uploading');
  const toUpload = input.files.filter(({ key }) => !session.ready.has(key));
  await inPool(toUpload, FILES_AT_ONCE, signal, async ({ key, file }, poolSignal) => {
    const uploading = session.records.get(key);
    if (!uploading) throw new Error(`The server made no record for "${file.name}".`);
    progress.updateFile(key, { phase: 'sending' });
    try {
      await deps.upload({
        file,
        uploading,
        api: deps.uploadApi,
        transport: deps.transport,
        signal: poolSignal,
        onProgress: ({ sentBytes, phase }) => progress.updateFile(key, { sentBytes, phase }),
      });
    } catch (error) {
      // A file stopped because another failed (or Send was cancelled) waits for the next try.
      progress.updateFile(key, { phase: error instanceof UploadCancelled ? 'waiting' : 'failed' });
      throw error;
    }
    session.ready.add(key);
    progress.updateFile(key, { phase: 'done' });
  });
  stopIfCancelled();

  progress.setPhase('finalizing');
  const sent = await deps.finalizeTransfer(transferId);
  session.transfer = sent;
  try {
    await deps.recordTiming(transferId, deps.now() - input.startedAt);
  } catch {
    // The transfer is sent; a lost timing report is no reason to tell the sender otherwise.
  }
  return sent;
}
