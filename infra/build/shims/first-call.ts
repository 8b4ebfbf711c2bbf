/**
 * Inside Lambda bundles: libraries a bundle loads on its first call rather than at import, so
 * a cold start's import compiles only what every call needs. A module that stands for such a
 * library (electrodb.ts beside this one) registers its loader when the bundle is imported, and
 * the bundler wraps every handler (`serveAfterLoads`), so each loader has finished before the
 * handler's code runs: the library's synchronous API stays synchronous.
 *
 * A bundle that registers nothing (a handler that never reaches such a library) loads nothing.
 */

type Loader = () => Promise<unknown>;

const loaders: Loader[] = [];
let loading: Promise<void> | undefined;

/** Called at import by a library's stand-in: `load` runs once, before the first call's handler. */
export function loadBeforeFirstCall(load: Loader): void {
  loaders.push(load);
}

function loadAll(): Promise<void> {
  loading ??= Promise.all(loaders.map((load) => load())).then(
    () => {
      loaders.length = 0;
      loading = undefined;
    },
    (error: unknown) => {
      // Tried again on the next call, as a failed cold start would be.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The bundle's exported handler: the entry's own, once the registered libraries are loaded. */
export function serveAfterLoads<Args extends unknown[], Result>(
  serve: (...args: Args) => Promise<Result> | Result,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    if (loaders.length > 0) await loadAll();
    return serve(...args);
  };
}
