import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage made once per process, however many times the module asking for it is
 * evaluated. Node 20 hands every new promise to every enabled AsyncLocalStorage, and one stays
 * enabled for the life of its process. A Lambda evaluates each module once, but the test workers
 * evaluate ours again for each file (test/support/fresh-file.ts): each file left its stores
 * behind, and a worker's hundredth file copied every promise into two hundred of them.
 */
export function processWideStorage<T>(key: string): AsyncLocalStorage<T> {
  const registry = globalThis as typeof globalThis & Record<symbol, AsyncLocalStorage<unknown> | undefined>;
  const symbol = Symbol.for(`toppubs.storage.${key}`);
  return (registry[symbol] ??= new AsyncLocalStorage<unknown>()) as AsyncLocalStorage<T>;
}
