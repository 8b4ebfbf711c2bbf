import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectStore } from '../../infra/local/s3-gateway/store';

let root: string;
let store: ObjectStore;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'local-s3-store-'));
  // No s3rver: these parts of the store never reach it.
  store = await ObjectStore.open(async () => ({ host: '127.0.0.1', port: 9 }), join(root, 's3'));
});

afterEach(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

/** A promise the test settles, to hold work open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('the local S3 store', () => {
  it('lets work on an object wait for the holder of any of its keys, and work on other objects run meanwhile', async () => {
    // Prepare
    const order: string[] = [];
    const copyStarted = gate();
    const copyMayEnd = gate();
    const a = { bucket: 'files', key: 'a' };
    const b = { bucket: 'files', key: 'b' };
    const c = { bucket: 'files', key: 'c' };
    const copy = store.holding([a, b], async () => {
      order.push('copy a to b starts');
      copyStarted.open();
      await copyMayEnd.opened;
      order.push('copy a to b ends');
    });
    await copyStarted.opened;

    // Act
    const writeA = store.holding([a], async () => {
      order.push('write a');
    });
    await store.holding([c], async () => {
      order.push('write c');
    });
    copyMayEnd.open();
    await Promise.all([copy, writeA]);

    // Assess
    expect(order).toEqual(['copy a to b starts', 'write c', 'copy a to b ends', 'write a']);
  });

  it('spools a body to a file, keeping at most what it is told while counting every byte', async () => {
    // Act
    const whole = await store.spool(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    const cut = await store.spool(Readable.from([Buffer.from('hello '), Buffer.from('world')]), { keepAtMost: 4 });

    // Assess
    expect(whole).toMatchObject({ size: 11, received: 11 });
    expect(readFileSync(whole.path, 'utf8')).toBe('hello world');
    expect(cut).toMatchObject({ size: 4, received: 11 });
    expect(readFileSync(cut.path, 'utf8')).toBe('hell');
  });

  it('leaves no spool file of a body that failed, nor of one it discards', async () => {
    // Prepare
    const failing = new Readable({
      read() {
        this.push(Buffer.from('half'));
        this.destroy(new Error('the caller went away'));
      },
    });
    const kept = await store.spool(Readable.from([Buffer.from('bytes')]));

    // Act
    const failed = await store.spool(failing).catch((error: unknown) => error);
    await store.discard(kept);

    // Assess
    expect(failed).toBeInstanceOf(Error);
    expect(existsSync(kept.path)).toBe(false);
    expect(readdirSync(`${join(root, 's3')}.incoming`)).toEqual([]);
  });
});
