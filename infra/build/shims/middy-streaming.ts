/**
 * What @middy/core's `node:stream/promises` and `node:stream/web` imports mean inside Lambda
 * bundles. Middy uses them only to stream a response, which none of our functions do (API
 * Gateway HTTP APIs cannot stream), yet importing them loads Node's web streams at every cold
 * start (some 6 ms). These stand-ins load the real modules if a response is ever streamed.
 */

/** Middy calls `pipeline(handlerStream, responseStream)`. */
export function pipeline(source: NodeJS.ReadableStream, destination: NodeJS.WritableStream): Promise<void> {
  return process.getBuiltinModule('node:stream/promises').pipeline(source, destination);
}

/** Only ever the right side of `instanceof`: the global is Node's web ReadableStream, loaded on first touch. */
export class ReadableStream {
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof globalThis.ReadableStream;
  }
}
