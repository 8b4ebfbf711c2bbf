import { describe, expect, it, vi } from 'vitest';
import { resumableFileStream } from './resumable-fetch';

const FILE = { name: 'film.mov', size: 1_000 };
const BYTES = Uint8Array.from({ length: FILE.size }, (_, index) => (index * 13) & 0xff);

/** A body that sends `bytes` in chunks of 100, then fails as a dropped connection does after `dropAfter` of them. */
function body(bytes: Uint8Array, dropAfter = Infinity): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.length) return controller.close();
      if (sent >= dropAfter) return controller.error(new TypeError('network error'));
      const chunk = bytes.slice(sent, Math.min(sent + 100, bytes.length));
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

/** A storage that honours Range, whose answers can drop: `drops[n]` bytes into the n-th request. */
function storage({ drops = [] as number[], honoursRange = true, statuses = [] as number[] } = {}) {
  const ranges: (string | null)[] = [];
  const fetchFile = vi.fn(async (_url: RequestInfo | URL, init: RequestInit = {}) => {
    const range = rangeOf(init);
    const call = ranges.push(range) - 1;
    const status = statuses[call];
    if (status) return new Response('<Error/>', { status });
    const start = honoursRange && range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1]) : 0;
    const answer = body(BYTES.slice(start), drops[call]);
    return start > 0
      ? new Response(answer, { status: 206, headers: { 'content-range': `bytes ${start}-${BYTES.length - 1}/${BYTES.length}` } })
      : new Response(answer, { status: 200 });
  });
  return { fetchFile, ranges };
}

/** The Range a request asked for (the code under test sends its headers as a plain object). */
const rangeOf = (init: RequestInit) => (init.headers as Record<string, string> | undefined)?.Range ?? null;

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).arrayBuffer().then((buffer) => new Uint8Array(buffer));

describe('a file of the zip that resumes after a dropped connection', () => {
  it('asks again from the byte where it stopped, and passes on every byte once', async () => {
    // Prepare: the connection drops 300 bytes in, then 200 bytes into the retry.
    const { fetchFile, ranges } = storage({ drops: [300, 200] });
    const sleep = vi.fn(async () => undefined);

    // Act
    const bytes = await read(resumableFileStream('https://bucket.example/film', FILE, { fetch: fetchFile, sleep }));

    // Assess
    expect(bytes).toEqual(BYTES);
    expect(ranges).toEqual([null, 'bytes=300-', 'bytes=500-']);
    // Each drop came after progress, so each retry waits the first pause.
    expect(sleep.mock.calls).toEqual([[1_000], [1_000]]);
  });

  it('waits longer after each failure in a row, and gives up after a few, saying which file', async () => {
    // Prepare: the first try drops at byte 100, then every retry fails with a 503.
    const { fetchFile } = storage({ drops: [100], statuses: [0, 503, 503, 503, 503, 503] });
    const sleep = vi.fn(async () => undefined);
    const onGiveUp = vi.fn();

    // Act
    const reading = read(resumableFileStream('https://bucket.example/film', FILE, { fetch: fetchFile, sleep, onGiveUp }));

    // Assess
    await expect(reading).rejects.toThrow('film.mov could not be downloaded: the connection failed 5 times in a row.');
    expect(sleep.mock.calls).toEqual([[1_000], [2_000], [4_000], [8_000]]);
    expect(fetchFile).toHaveBeenCalledTimes(5);
    expect(onGiveUp).toHaveBeenCalledOnce();
  });

  it('does not retry an answer a retry would not change, such as an expired link', async () => {
    // Prepare
    const { fetchFile } = storage({ statuses: [403] });
    const sleep = vi.fn(async () => undefined);

    // Act
    const reading = read(resumableFileStream('https://bucket.example/film', FILE, { fetch: fetchFile, sleep }));

    // Assess
    await expect(reading).rejects.toThrow('film.mov could not be downloaded (403).');
    expect(sleep).not.toHaveBeenCalled();
  });

  it('skips the bytes it already has when the storage ignores Range and sends the whole file again', async () => {
    // Prepare
    const { fetchFile, ranges } = storage({ drops: [400], honoursRange: false });

    // Act
    const bytes = await read(
      resumableFileStream('https://bucket.example/film', FILE, { fetch: fetchFile, sleep: async () => undefined }),
    );

    // Assess
    expect(bytes).toEqual(BYTES);
    expect(ranges).toEqual([null, 'bytes=400-']);
  });

  it('treats a connection that ends before the last byte as dropped', async () => {
    // Prepare: the first answer ends cleanly after 600 of the 1,000 bytes.
    let calls = 0;
    const fetchFile = vi.fn(async (_url: RequestInfo | URL, init: RequestInit = {}) => {
      calls += 1;
      if (calls === 1) return new Response(body(BYTES.slice(0, 600)), { status: 200 });
      expect(rangeOf(init)).toBe('bytes=600-');
      return new Response(body(BYTES.slice(600)), {
        status: 206,
        headers: { 'content-range': `bytes 600-999/${BYTES.length}` },
      });
    });

    // Act
    const bytes = await read(
      resumableFileStream('https://bucket.example/film', FILE, { fetch: fetchFile, sleep: async () => undefined }),
    );

    // Assess
    expect(bytes).toEqual(BYTES);
    expect(fetchFile).toHaveBeenCalledTimes(2);
  });
});
