/**
 * The one door to zod: every schema in the repo is built with zod's mini build, imported from here.
 *
 * Each route is its own Lambda, so every cold start compiles the zod the bundle holds. Classic
 * zod attaches every method to every schema, so any use pulls in all of it (about 85 KB
 * minified, 10-18 ms of each cold start); the mini build's functions tree-shake down to the
 * checks a route uses. See docs/architecture.md, "Cold starts".
 *
 * The mini build ships without messages; English is what our users and tests read.
 */
import { en } from 'zod/locales';
import { config } from 'zod/mini';

// Named, not `z.locales.en()`: the `locales` namespace would bring every language into each bundle.
config(en());

export * from 'zod/mini';
