import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * The AWS SDK's core submodules (`@aws-sdk/core/protocols`, `@smithy/core/schema`, ...): index
 * modules that re-export what their files define, one protocol or part per file. Lambda bundles
 * load the SES, KMS and API Gateway clients on first use (chunks of their own), and SES speaks
 * the Query protocol, answered in XML. With code splitting, esbuild puts a file in the chunks of
 * every entry that reaches it through an import, used or not: the DynamoDB client imports
 * AwsJson1_0Protocol from an index that names every protocol's file, so the Query, XML and
 * streaming code those lazy clients need (some 35 KB minified) landed in the part every cold
 * start compiles. Only indexes made of nothing but `export { ... } from` are bypassed.
 */
const SDK_CORE_SUBMODULE = /^@(aws-sdk|smithy)\/core\/[a-z-]+$/;

const NAMESPACE = 'direct-sdk-imports';

const REEXPORT = /export\s*\{([^}]*)\}\s*from\s*"([^"]+)";?/g;

/**
 * `export { A, B as C } from "./x";` -> exported name -> [file, imported name]; empty when the
 * module holds anything else (code of its own, which bypassing it would drop).
 */
function reexportsOf(indexFile: string): Map<string, { file: string; imported: string }> {
  const targets = new Map<string, { file: string; imported: string }>();
  const text = readFileSync(indexFile, 'utf8');
  if (
    text
      .replace(REEXPORT, '')
      .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
      .trim() !== ''
  )
    return targets;
  for (const [, names, from] of text.matchAll(REEXPORT)) {
    const file = (from as string).startsWith('.') ? path.resolve(path.dirname(indexFile), `${from}.js`) : (from as string);
    for (const part of (names as string).split(',')) {
      const [imported, exported = imported] = part.trim().split(/\s+as\s+/);
      if (imported) targets.set(exported as string, { file, imported });
    }
  }
  return targets;
}

/** The names an importer takes from `specifier`, when it takes them by name only (no namespace import). */
function importedNames(importerText: string, specifier: string): string[] | undefined {
  const quoted = specifier.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&');
  const statements = [...importerText.matchAll(new RegExp(`(import|export)\\s*([^;]*?)\\s*from\\s*["']${quoted}["']`, 'g'))];
  const names: string[] = [];
  for (const [, , clause] of statements) {
    const braces = /^(?:type\s+)?\{([^}]*)\}$/.exec((clause as string).trim());
    if (!braces) return undefined;
    for (const part of (braces[1] as string).split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name) names.push(name);
    }
  }
  return names.length > 0 ? names : undefined;
}

/**
 * Resolves a named import from one of those indexes to a module that re-exports just those names
 * from the files that define them: the same modules, reached only where they are used.
 */
export const directSdkImports: Plugin = {
  name: 'direct-sdk-imports',
  setup(pluginBuild) {
    const indexes = new Map<string, { dir: string; targets: Map<string, { file: string; imported: string }> }>();
    pluginBuild.onResolve({ filter: SDK_CORE_SUBMODULE }, (args) => {
      if (args.namespace !== 'file' || !args.importer.endsWith('.js')) return undefined;
      const names = importedNames(readFileSync(args.importer, 'utf8'), args.path);
      if (!names) return undefined;
      let index = indexes.get(args.path);
      if (!index) {
        // The CommonJS build is what require() resolves; the ES build beside it is what we bundle.
        const indexFile = createRequire(args.importer)
          .resolve(args.path)
          .replace(`${path.sep}dist-cjs${path.sep}`, `${path.sep}dist-es${path.sep}`);
        index = { dir: path.dirname(indexFile), targets: reexportsOf(indexFile) };
        indexes.set(args.path, index);
      }
      const { targets } = index;
      if (!names.every((name) => targets.has(name))) return undefined;
      return { path: `${args.path}?${[...names].sort().join(',')}`, namespace: NAMESPACE, pluginData: { index, names } };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      const { index, names } = args.pluginData as {
        index: { dir: string; targets: Map<string, { file: string; imported: string }> };
        names: string[];
      };
      const lines = names.map((name) => {
        const { file, imported } = index.targets.get(name) as { file: string; imported: string };
        return `export { ${imported === name ? name : `${imported} as ${name}`} } from ${JSON.stringify(file)};`;
      });
      return { contents: lines.join('\n'), loader: 'js', resolveDir: index.dir };
    });
  },
};
