import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EVERY_FUNCTION } from '../../shared/functions';
import { pureSchemaModules } from './pure-schema-modules';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where `cdk synth` and the benchmarks expect the bundles unless told otherwise. */
export const DEFAULT_BUNDLE_DIR = path.join(REPO_ROOT, 'dist', 'functions');

export interface HandlerEntryPoint {
  /** Handler path under functions/, e.g. 'ranking/show-home'. */
  name: string;
  /** Absolute path of the TypeScript file that exports `handler`. */
  entry: string;
}

export interface BundleResult {
  name: string;
  /** Absolute path of the bundle's index.mjs. */
  file: string;
  /** Every file of the bundle's folder (the Lambda asset): index.mjs, then the lazy libraries it may load. */
  files: readonly string[];
  /** The whole asset: index.mjs and every library it may load on demand. */
  bytes: number;
  /** What importing index.mjs loads (index.mjs alone): a cold start's share. */
  importBytes: number;
  /**
   * With `analyze`: bytes each input file (source or dependency) adds to the bundle, over the
   * whole asset (the libraries loaded on demand included).
   */
  inputs?: Readonly<Record<string, number>>;
  /** With `analyze`: the same, for what importing index.mjs loads only. */
  importInputs?: Readonly<Record<string, number>>;
}

export interface BundleOptions {
  outDir: string;
  /** Defaults to every route and job handler. */
  entries?: readonly HandlerEntryPoint[];
  /**
   * Defaults to true, as shipped. Profiling turns it off: the readable output names each source
   * module in a comment, so a CPU profile's lines can be traced back to the module that ran.
   */
  minify?: boolean;
  /** Report what each input file weighs in each bundle (BundleResult.inputs). */
  analyze?: boolean;
}

/** 'ranking/show-home' -> 'ranking-show-home': one flat folder per Lambda asset. */
export function bundleFolderName(handler: string): string {
  return handler.replaceAll('/', '-');
}

/** Folder holding index.mjs for one handler; what Code.fromAsset points at. */
export function bundleFolder(outDir: string, handler: string): string {
  return path.join(outDir, bundleFolderName(handler));
}

/** Every handler a Lambda is made from: route, job and realtime handlers, each once. */
export function handlerEntryPoints(): HandlerEntryPoint[] {
  const handlers = new Set<string>(EVERY_FUNCTION.map((entry) => entry.handler));
  return [...handlers].map((name) => ({ name, entry: path.join(REPO_ROOT, 'functions', `${name}.ts`) }));
}

const CREDENTIALS_SHIM = fileURLToPath(new URL('./shims/credentials-from-env.ts', import.meta.url));

/** Lambda bundles take credentials from the environment only; see the shim for why. */
const lambdaCredentialsShim: Plugin = {
  name: 'lambda-credentials-from-env',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, () => ({ path: CREDENTIALS_SHIM }));
  },
};

const ELECTRODB_FACADE = fileURLToPath(new URL('./shims/electrodb.ts', import.meta.url));
const ELECTRODB_COMMANDS = fileURLToPath(new URL('./shims/electrodb-document-commands.cjs', import.meta.url));
const ELECTRODB_MODEL_CHECK = fileURLToPath(new URL('./shims/jsonschema-model-check.cjs', import.meta.url));
const ELECTRODB_DIR = `${path.sep}node_modules${path.sep}electrodb${path.sep}`;

/**
 * ElectroDB is loaded on a bundle's first call, from a file of its own (see the facade).
 * ElectroDB is CommonJS and require()s @aws-sdk/lib-dynamodb, and an ES module reached through
 * require() is bundled whole: every DynamoDB command, its schemas and the aggregated client,
 * about 60 KB minified that each cold start would compile. Inside bundles ElectroDB gets the
 * ten commands it uses from the facade instead; tests and the local runtime use it unchanged.
 */
const electrodbCommandsShim: Plugin = {
  name: 'electrodb-document-commands',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^electrodb$/ }, (args) =>
      args.importer === ELECTRODB_FACADE ? undefined : { path: ELECTRODB_FACADE },
    );
    pluginBuild.onResolve({ filter: /^@aws-sdk\/lib-dynamodb$/ }, (args) =>
      args.importer.includes(ELECTRODB_DIR) ? { path: ELECTRODB_COMMANDS } : undefined,
    );
    pluginBuild.onResolve({ filter: /^jsonschema$/ }, (args) =>
      args.importer.includes(ELECTRODB_DIR) ? { path: ELECTRODB_MODEL_CHECK } : undefined,
    );
  },
};

const MIDDY_STREAMING = fileURLToPath(new URL('./shims/middy-streaming.ts', import.meta.url));
const MIDDY_CORE_DIR = `${path.sep}node_modules${path.sep}@middy${path.sep}core${path.sep}`;

/** Middy's core loads Node's web streams for response streaming, which we never use; see the shim. */
const middyStreamingShim: Plugin = {
  name: 'middy-streaming-on-demand',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:stream\/(promises|web)$/ }, (args) =>
      args.importer.includes(MIDDY_CORE_DIR) ? { path: MIDDY_STREAMING } : undefined,
    );
  },
};

const FIRST_CALL = fileURLToPath(new URL('./shims/first-call.ts', import.meta.url));
const HANDLER_ENTRY = 'lambda-handler:';

/**
 * What each bundle's index.mjs is made from: the handler file's `handler`, run once the
 * libraries the bundle loads on its first call are loaded (shims/first-call.ts).
 */
const handlerEntries: Plugin = {
  name: 'lambda-handler-entries',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: new RegExp(`^${HANDLER_ENTRY}`) }, (args) => ({
      path: args.path.slice(HANDLER_ENTRY.length),
      namespace: 'lambda-handler',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lambda-handler' }, (args) => ({
      contents: [
        `import { handler as serve } from ${JSON.stringify(args.path)};`,
        `import { serveAfterLoads } from ${JSON.stringify(FIRST_CALL)};`,
        'export const handler = serveAfterLoads(serve);',
      ].join('\n'),
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/** Where a bundle keeps the libraries it loads on demand, beside index.mjs. */
const LAZY_DIR = 'lazy';

/**
 * Libraries a handler loads with `await import(...)` when a call first needs them, each built
 * as a file of its own (outDir/<folder>/lazy/<name>.mjs), which the import names: a cold start
 * compiles none of them until then. Only self-contained libraries belong here: the file has
 * its own copy of everything it imports, so it must share no classes or state with our code.
 * (esbuild's code splitting would share modules between a handler and its chunks instead, but
 * in one build of many handlers a chunk holds what all of them use of each module it contains.)
 */
const LAZY_LIBRARIES: readonly { name: string; specifier: string; importer?: string; entry: string }[] = [
  { name: 'braintree', specifier: 'braintree', entry: 'braintree' },
  { name: 'file-type', specifier: 'file-type/core', entry: 'file-type/core' },
  { name: 'image-size', specifier: 'image-size', entry: 'image-size' },
  // ElectroDB's modules, which get the DynamoDB commands from the handler's bundle (see the facade).
  {
    name: 'electrodb',
    specifier: './electrodb-library',
    importer: ELECTRODB_FACADE,
    entry: fileURLToPath(new URL('./shims/electrodb-library.ts', import.meta.url)),
  },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** In a handler's bundle, `import()` of a lazy library names its file instead of bundling it. */
const lazyLibraries: Plugin = {
  name: 'lazy-libraries',
  setup(pluginBuild) {
    const filter = new RegExp(`^(${LAZY_LIBRARIES.map(({ specifier }) => escapeRegExp(specifier)).join('|')})$`);
    pluginBuild.onResolve({ filter }, (args) => {
      const library = LAZY_LIBRARIES.find(
        ({ specifier, importer }) => specifier === args.path && (importer === undefined || importer === args.importer),
      );
      if (!library || args.kind !== 'dynamic-import') return undefined;
      return { path: `./${LAZY_DIR}/${library.name}.mjs`, external: true };
    });
  },
};

/** What every bundle and every lazy library is built with. */
const COMMON_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Prefer ESM builds of dependencies: they tree-shake, CommonJS builds do not.
  mainFields: ['module', 'main'],
  treeShaking: true,
  sourcemap: false,
  legalComments: 'none',
  outExtension: { '.js': '.mjs' },
  // Bundled CommonJS dependencies still call require() for Node built-ins.
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: REPO_ROOT,
} as const satisfies BuildOptions;

const outputKey = (file: string) => path.relative(REPO_ROOT, file).split(path.sep).join('/');

/** Bytes each input adds to one output. */
function inputsOf(metafile: Metafile, output: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(metafile.outputs[output]?.inputs ?? {}).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
  );
}

/**
 * Bundles each handler into outDir/<folder>/index.mjs in one esbuild run, with the lazy
 * libraries it imports on demand in outDir/<folder>/lazy/: the folder is the whole Lambda asset.
 * The AWS SDK is bundled rather than taken from the runtime so the version we test is the
 * version we ship, and tree shaking keeps only the commands a handler uses.
 */
export async function bundleFunctions(options: BundleOptions): Promise<BundleResult[]> {
  const entries = options.entries ?? handlerEntryPoints();
  const outDir = path.resolve(options.outDir);
  const missing = entries.filter(({ entry }) => !existsSync(entry));
  if (missing.length > 0) {
    throw new Error(`No handler file for: ${missing.map(({ name }) => `functions/${name}.ts`).join(', ')}`);
  }
  // A stale file left in a bundle folder would change the asset hash and ship dead weight.
  for (const { name } of entries) {
    rmSync(bundleFolder(outDir, name), { recursive: true, force: true });
  }
  const minify = options.minify ?? true;
  const plugins = [lambdaCredentialsShim, electrodbCommandsShim, middyStreamingShim, pureSchemaModules];

  const handlers = await build({
    ...COMMON_OPTIONS,
    entryPoints: Object.fromEntries(
      entries.map(({ name, entry }) => [path.join(bundleFolderName(name), 'index'), `${HANDLER_ENTRY}${entry}`]),
    ),
    outdir: outDir,
    minify,
    plugins: [handlerEntries, lazyLibraries, ...plugins],
  });
  const lazyOf = (file: string): string[] =>
    (handlers.metafile.outputs[outputKey(file)]?.imports ?? [])
      .filter((imported) => imported.external && imported.kind === 'dynamic-import' && imported.path.startsWith(`./${LAZY_DIR}/`))
      .map((imported) => path.basename(imported.path, '.mjs'));
  const indexFiles = new Map(entries.map(({ name }) => [name, path.join(bundleFolder(outDir, name), 'index.mjs')]));

  // Each lazy library that some bundle imports, built once, in memory, then copied to those bundles.
  const needed = new Set([...indexFiles.values()].flatMap(lazyOf));
  const libraries = LAZY_LIBRARIES.filter(({ name }) => needed.has(name));
  const libraryDir = path.join(outDir, `.${LAZY_DIR}`);
  const built =
    libraries.length === 0
      ? undefined
      : await build({
          ...COMMON_OPTIONS,
          entryPoints: Object.fromEntries(libraries.map(({ name, entry }) => [name, entry])),
          outdir: libraryDir,
          minify,
          plugins,
          write: false,
        });
  const library = new Map(
    libraries.map(({ name }) => {
      const file = path.join(libraryDir, `${name}.mjs`);
      const contents = built?.outputFiles.find((output) => output.path === file)?.contents;
      if (!contents) throw new Error(`esbuild built no ${file}`);
      return [name, { contents, inputs: built ? inputsOf(built.metafile, outputKey(file)) : {} }];
    }),
  );

  return entries.map(({ name }) => {
    const file = indexFiles.get(name) as string;
    const importBytes = statSync(file).size;
    const files = [file];
    let bytes = importBytes;
    const lazyInputs: Record<string, number>[] = [];
    for (const lazy of lazyOf(file)) {
      const { contents, inputs } = library.get(lazy) as { contents: Uint8Array; inputs: Record<string, number> };
      const target = path.join(path.dirname(file), LAZY_DIR, `${lazy}.mjs`);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, contents);
      files.push(target);
      bytes += contents.byteLength;
      lazyInputs.push(inputs);
    }
    if (!options.analyze) return { name, file, files, bytes, importBytes };
    const importInputs = inputsOf(handlers.metafile, outputKey(file));
    const inputs = { ...importInputs };
    for (const more of lazyInputs) {
      for (const [input, size] of Object.entries(more)) inputs[input] = (inputs[input] ?? 0) + size;
    }
    return { name, file, files, bytes, importBytes, inputs, importInputs };
  });
}

/** A CLI report on stdout (lint reserves console for warnings and errors outside infra/cdk). */
function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const outDir = process.argv[2] ?? DEFAULT_BUNDLE_DIR;
  const started = performance.now();
  const results = await bundleFunctions({ outDir });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const width = Math.max(...results.map((result) => result.name.length));
  print(`${'bundle'.padEnd(width)}  ${'asset'.padStart(12)}  ${'at import'.padStart(12)}`);
  for (const result of [...results].sort((a, b) => b.bytes - a.bytes)) {
    print(
      `${result.name.padEnd(width)}  ${`${(result.bytes / 1024).toFixed(1)} KiB`.padStart(12)}  ${`${(result.importBytes / 1024).toFixed(1)} KiB`.padStart(12)}`,
    );
  }
  const total = results.reduce((sum, result) => sum + result.bytes, 0);
  print(`${results.length} bundles, ${(total / 1024).toFixed(1)} KiB in total, ${seconds} s -> ${outDir}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
