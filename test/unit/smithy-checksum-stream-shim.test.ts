import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChecksumStream } from '../../infra/build/shims/smithy-checksum-stream';

/** The SDK's web checksum modules, which the bundles' stand-in replaces (bundle-functions.ts). */
const checksumDir = join(
  dirname(createRequire(import.meta.url).resolve('@smithy/core/package.json')),
  'dist-es/submodules/serde/util-stream/checksum',
);
const sdkModule = (name: string) => readFileSync(join(checksumDir, name), 'utf8');

describe("the stand-in for @smithy/core's web ChecksumStream inside bundles", () => {
  it('replaces a module that exports the one class and nothing else', () => {
    // Act
    const exported = [...sdkModule('ChecksumStream.browser.js').matchAll(/export\s+(?:class|const|function|let|var)\s+(\w+)/g)];

    // Assess: were the SDK to export more from it, a bundle would miss it.
    expect(exported.map((match) => match[1])).toEqual(['ChecksumStream']);
    expect(sdkModule('ChecksumStream.browser.js')).not.toMatch(/export\s*\{|export\s+default/);
  });

  it('stands in for the only use the SDK makes of the class: its prototype', () => {
    // Prepare: its code, without the imports and the words of its messages.
    const code = sdkModule('createChecksumStream.browser.js')
      .replace(/^import .*$/gm, '')
      .replace(/`[^`]*`|"[^"]*"/g, '""');

    // Act
    const uses = [...code.matchAll(/\bChecksumStream\b(\.\w+)?/g)];

    // Assess
    expect(uses.map((use) => use[1] ?? '')).toEqual(['.prototype']);
  });

  it('gives a web stream the prototype of a ChecksumStream that is still a ReadableStream, and reads it', async () => {
    // Prepare
    const stream = new Response('checked').body as ReadableStream<Uint8Array>;

    // Act
    Object.setPrototypeOf(stream, ChecksumStream.prototype);
    const text = await new Response(stream).text();

    // Assess
    expect(stream).toBeInstanceOf(ReadableStream);
    expect(stream.constructor.name).toBe('ChecksumStream');
    expect(text).toBe('checked');
  });
});
