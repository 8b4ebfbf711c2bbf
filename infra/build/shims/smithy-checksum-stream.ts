/**
 * What @smithy/core's `ChecksumStream.browser.js` means inside Lambda bundles. The SDK's module
 * declares `class ChecksumStream extends ReadableStream` at its top level, and reading the global
 * ReadableStream loads Node's web streams: some 2 ms of every cold start of a bundle that reaches
 * the module (any that loads SES, KMS or S3 beside DynamoDB), for a class the SDK uses only when
 * a response body is a web stream, which in Node it never is. Its one use,
 * createChecksumStream.browser.js, gives such a stream `ChecksumStream.prototype`: made here
 * on first use instead (test/unit/smithy-checksum-stream-shim.test.ts holds the SDK to that).
 */
let made: { prototype: ReadableStream } | undefined;

function checksumStreamClass(): { prototype: ReadableStream } {
  made ??= class ChecksumStream extends globalThis.ReadableStream<Uint8Array> {};
  return made;
}

export const ChecksumStream = {
  get prototype(): ReadableStream {
    return checksumStreamClass().prototype;
  },
};
