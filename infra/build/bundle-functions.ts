import { build, type Plugin } from 'esbuild';
import { existsSync, rmSync, statSync } from 'node:fs';
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
  bytes: number;
  /** With `analyze`: bytes each input file (source or dependency) adds to the bundle. */
  inputs?: Readonly<Record<string, number>>;
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

/**
 * Bundles each handler into outDir/<folder>/index.mjs in one esbuild run. The AWS SDK is bundled
 * rather than taken from the runtime so the version we test is the version we ship, and tree
 * shaking keeps only the commands a handler uses.
 */
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

  const built = await build({
    entryPoints: Object.fromEntries(entries.map(({ name, entry }) => [path.join(bundleFolderName(name), 'index'), entry])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Prefer ESM builds of dependencies: they tree-shake, CommonJS builds do not.
    mainFields: ['module', 'main'],
    minify: options.minify ?? true,
    treeShaking: true,
    sourcemap: false,
    legalComments: 'none',
    // Bundled CommonJS dependencies still call require() for Node built-ins.
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins: [lambdaCredentialsShim, electrodbCommandsShim, middyStreamingShim, pureSchemaModules],
    metafile: options.analyze ?? false,
  });

  return entries.map(({ name }) => {
    const file = path.join(bundleFolder(outDir, name), 'index.mjs');
    const output = built.metafile?.outputs[path.relative(process.cwd(), file).split(path.sep).join('/')];
    const inputs = output
      ? Object.fromEntries(Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]))
      : undefined;
    return { name, file, bytes: statSync(file).size, ...(inputs ? { inputs } : {}) };
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
  for (const result of [...results].sort((a, b) => b.bytes - a.bytes)) {
    print(`${result.name.padEnd(width)}  ${(result.bytes / 1024).toFixed(1).padStart(8)} KiB`);
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
