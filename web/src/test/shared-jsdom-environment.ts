import { createRequire } from 'node:module';
import { builtinEnvironments, type Environment } from 'vitest/environments';

/**
 * Vitest's jsdom environment, set up once per worker instead of once per test file.
 *
 * The web files run without isolation (vitest.config.ts): a worker keeps the modules it has
 * loaded from one file to the next. Vitest still builds a new jsdom window for every file and
 * tears the last one down, so the modules kept from earlier files would hold on to a window that
 * is gone: Testing Library's `screen` is bound to the first file's document.body, polyfills and
 * listeners land on the first window only. Here every file of a worker gets the same window, as
 * the pages of a single-page app share one in a browser; what a test leaves in it is cleaned up by
 * src/test/setup.ts. The window lives until the worker ends.
 */
const jsdom = builtinEnvironments.jsdom;
let shared: ReturnType<typeof jsdom.setup> | undefined;

// jsdom's own internals, for its selector engine's caches below.
const require = createRequire(import.meta.url);
const { implForWrapper } = require('jsdom/lib/jsdom/living/generated/utils.js') as {
  implForWrapper(wrapper: Document): { _nwsapi?: Nwsapi; _nwsapiDontThrow?: Nwsapi } | null;
};

/** The parts of an nwsapi instance (jsdom's selector engine) that keep elements. */
interface Nwsapi {
  matchResolvers: { clear(): void };
  selectResolvers: { clear(): void };
  Snapshot: { nthElement(element: null, reset: 2): number; nthOfType(element: null, reset: 2): number; HOVER: unknown };
}

/**
 * jsdom answers querySelector, matches and its style cascade with nwsapi, two instances per
 * document, whose caches keep the elements of past queries (its :nth-child caches without bound,
 * as jsdom's getComputedStyle fills them): on a window shared by every file, the detached pages of
 * all earlier tests, hundreds of MB by the end of a worker's run. Each file starts with them empty,
 * as with a window of its own. (Not new instances: each adds listeners to the document for good.)
 */
function emptySelectorCaches(document: Document): void {
  const impl = implForWrapper(document);
  for (const engine of [impl?._nwsapi, impl?._nwsapiDontThrow]) {
    if (!engine) continue;
    engine.matchResolvers.clear();
    engine.selectResolvers.clear();
    engine.Snapshot.nthElement(null, 2);
    engine.Snapshot.nthOfType(null, 2);
    engine.Snapshot.HOVER = null;
  }
}

export default {
  name: 'shared-jsdom',
  transformMode: 'web',
  async setup(global, options) {
    if (shared) emptySelectorCaches((global as typeof globalThis).document);
    shared ??= jsdom.setup(global, options);
    await shared;
    return { teardown: () => undefined };
  },
} satisfies Environment;
