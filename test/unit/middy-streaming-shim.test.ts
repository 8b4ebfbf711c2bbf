import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pipeline, ReadableStream as StandIn } from '../../infra/build/shims/middy-streaming';

describe("middy's streaming imports inside bundles", () => {
  it('recognises a web ReadableStream as the real class does, and nothing else', () => {
    // Prepare
    const stream = new ReadableStream();

    // Assess
    expect(stream instanceof StandIn).toBe(true);
    expect({} instanceof StandIn).toBe(false);
  });

  it('pipes a stream through the real pipeline', async () => {
    // Prepare
    const received: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        done();
      },
    });

    // Act
    await pipeline(Readable.from(['a', 'b']), sink);

    // Assess
    expect(received.join('')).toBe('ab');
  });
});
