import { type BuildResult, context, type Metafile, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
  /** Every file of the bundle's folder (the Lambda asset): index.mjs, then its chunks. */
  files: readonly string[];
  /** The whole asset: index.mjs and every chunk it may load. */
  bytes: number;
  /** What importing index.mjs loads (it and the chunks it imports statically): a cold start's share. */
  importBytes: number;
  /**
   * With `analyze`: bytes each input file (source or dependency) adds to the bundle, over the
   * whole asset (the chunks loaded on demand included).
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

/** Folder holding index.mjs and its chunks for one handler: the whole Lambda asset, what Code.fromAsset points at. */
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
 * ElectroDB is loaded on a bundle's first call, from a chunk of its own (see the facade).
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

const CHECKSUM_STREAM = fileURLToPath(new URL('./shims/smithy-checksum-stream.ts', import.meta.url));
const UTIL_STREAM_CHECKSUM_DIR = [
  '',
  'node_modules',
  '@smithy',
  'core',
  'dist-es',
  'submodules',
  'serde',
  'util-stream',
  'checksum',
  '',
].join(path.sep);

/** The SDK's web ChecksumStream reads the global ReadableStream at import; see the shim for why. */
const checksumStreamShim: Plugin = {
  name: 'smithy-checksum-stream-on-demand',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/ChecksumStream\.browser$/ }, (args) =>
      args.importer.includes(UTIL_STREAM_CHECKSUM_DIR) ? { path: CHECKSUM_STREAM } : undefined,
    );
  },
};

const FIRST_CALL = fileURLToPath(new URL('./shims/first-call.ts', import.meta.url));
const HANDLER_ENTRY = 'lambda-handler';

/**
 * What a bundle's index.mjs is made from: the handler file's `handler`, run once the libraries
 * the bundle loads on its first call are loaded (shims/first-call.ts). One esbuild context
 * builds handler after handler, so the entry is whichever handler `current` names.
 */
function handlerEntry(current: () => string): Plugin {
  return {
    name: 'lambda-handler-entry',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^${HANDLER_ENTRY}$`) }, () => ({
        path: HANDLER_ENTRY,
        namespace: HANDLER_ENTRY,
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: HANDLER_ENTRY }, () => ({
        contents: [
          `import { handler as serve } from ${JSON.stringify(current())};`,
          `import { serveAfterLoads } from ${JSON.stringify(FIRST_CALL)};`,
          'export const handler = serveAfterLoads(serve);',
        ].join('\n'),
        resolveDir: REPO_ROOT,
        loader: 'js',
      }));
    },
  };
}

/**
 * esbuild's Go runtime collects garbage each time its heap doubles (GOGC=100). A context keeps
 * every module it parsed for the next rebuild, so each collection marks all of them again: 82
 * of esbuild's CPU seconds over the 243 builds were 57 at 400, where the heap may grow to five
 * times what is live before a collection (1.5 GB for two contexts here). Go reads GOGC when
 * esbuild's service starts, on the first build of the process; a value the caller set is kept.
 */
function useBundlerGarbageCollection(): void {
  process.env.GOGC ??= '400';
}

/** Where a bundle keeps the chunks it loads, beside index.mjs. */
const CHUNK_DIR = 'chunks';
/** esbuild contexts building at once, each its share of the handlers one after another. */
const BUILD_PARALLELISM = Math.max(1, Math.min(4, availableParallelism()));

/** Bytes each input adds to these outputs together. */
function inputsOf(metafile: Metafile, outputs: Iterable<string>): Record<string, number> {
  const inputs: Record<string, number> = {};
  for (const output of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[output]?.inputs ?? {})) {
      inputs[input] = (inputs[input] ?? 0) + bytesInOutput;
    }
  }
  return inputs;
}

/**
 * The chunks an output imports, however indirectly: statically only (what importing it loads),
 * or also on demand (`import()`). esbuild writes a chunk for every `import()` it finds, even in
 * code that tree shaking then drops; such a chunk is imported by no output, and is left out.
 */
function chunksOf(metafile: Metafile, output: string, kinds: 'static' | 'all'): Set<string> {
  const found = new Set<string>();
  const visit = (from: string) => {
    for (const imported of metafile.outputs[from]?.imports ?? []) {
      if (imported.external || found.has(imported.path)) continue;
      if (kinds === 'static' && imported.kind !== 'import-statement') continue;
      found.add(imported.path);
      visit(imported.path);
    }
  };
  visit(output);
  return found;
}

/** Writes one handler's build (index.mjs and its chunks) into the handler's folder. */
function writeBundle(
  built: BuildResult<{ metafile: true; write: false }>,
  buildDir: string,
  name: string,
  outDir: string,
  analyze: boolean,
): BundleResult {
  const { metafile } = built;
  const folder = bundleFolder(outDir, name);
  const keyOf = (relative: string) => path.relative(REPO_ROOT, path.join(buildDir, relative)).split(path.sep).join('/');
  const entry = keyOf('index.mjs');
  const loadedAtImport = new Set([entry, ...chunksOf(metafile, entry, 'static')]);
  const shipped = new Set([entry, ...chunksOf(metafile, entry, 'all')]);
  const file = path.join(folder, 'index.mjs');
  const files: string[] = [];
  let bytes = 0;
  let importBytes = 0;
  for (const output of built.outputFiles) {
    const relative = path.relative(buildDir, output.path);
    if (!shipped.has(keyOf(relative))) continue;
    const target = path.join(folder, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, output.contents);
    files.push(target);
    bytes += output.contents.byteLength;
    if (loadedAtImport.has(keyOf(relative))) importBytes += output.contents.byteLength;
  }
  files.sort((a, b) => (a === file ? -1 : b === file ? 1 : a.localeCompare(b)));
  if (!analyze) return { name, file, files, bytes, importBytes };
  return {
    name,
    file,
    files,
    bytes,
    importBytes,
    inputs: inputsOf(metafile, shipped),
    importInputs: inputsOf(metafile, loadedAtImport),
  };
}

/**
 * Bundles each handler into outDir/<folder>/index.mjs, the AWS SDK included: the version we
 * test is the version we ship, and tree shaking keeps only the commands a handler uses.
 *
 * With code splitting, what a handler loads with `await import()` (a payment gateway's SDK,
 * image decoding, ElectroDB) is a chunk of its own in outDir/<folder>/chunks/, compiled only
 * when a call needs it, and what it shares with the handler stays in the handler's part: the
 * folder is the whole Lambda asset. Each handler is built on its own, so each is tree-shaken
 * for itself: in one build of many handlers, a chunk would hold what all of them use of each
 * module in it. Handlers are built one after another in a few esbuild contexts, which parse
 * each source file once.
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
  // Never written: esbuild answers in memory, and each bundle goes to its own folder.
  const buildDir = path.join(outDir, '.build');
  useBundlerGarbageCollection();

  const results: BundleResult[] = [];
  let next = 0;
  const builder = async (): Promise<void> => {
    let current: HandlerEntryPoint | undefined;
    const builds = await context({
      entryPoints: { index: HANDLER_ENTRY },
      outdir: buildDir,
      absWorkingDir: REPO_ROOT,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      format: 'esm',
      splitting: true,
      chunkNames: `${CHUNK_DIR}/[name]-[hash]`,
      platform: 'node',
      target: 'node22',
      // Prefer ESM builds of dependencies: they tree-shake, CommonJS builds do not.
      mainFields: ['module', 'main'],
      minify: options.minify ?? true,
      treeShaking: true,
      sourcemap: false,
      legalComments: 'none',
      // Bundled CommonJS dependencies still call require() for Node built-ins (in each chunk too).
      banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
      logLevel: 'warning',
      plugins: [
        handlerEntry(() => (current as HandlerEntryPoint).entry),
        lambdaCredentialsShim,
        electrodbCommandsShim,
        middyStreamingShim,
        checksumStreamShim,
        pureSchemaModules,
      ],
      metafile: true,
      write: false,
    });
    try {
      for (let index = next++; index < entries.length; index = next++) {
        current = entries[index] as HandlerEntryPoint;
        results[index] = writeBundle(await builds.rebuild(), buildDir, current.name, outDir, options.analyze ?? false);
      }
    } finally {
      await builds.dispose();
    }
  };
  await Promise.all(Array.from({ length: Math.min(BUILD_PARALLELISM, entries.length) }, builder));
  return results;
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
