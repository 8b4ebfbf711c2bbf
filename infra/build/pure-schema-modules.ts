import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/**
 * The route table and its schemas (shared/routes/*.ts, shared/schemas/*.ts): modules whose
 * top-level constants only build values (routes, zod schemas) without side effects.
 */
export const SCHEMA_MODULES = /[\\/]shared[\\/](routes|schemas)[\\/][^\\/]+\.ts$/;

/**
 * Start offsets of every call evaluated while a top-level constant of the module is
 * initialised: the calls of the initialiser and of its arguments, however deep, but not those
 * inside functions, which run later, if ever.
 */
export function moduleScopeCallStarts(source: ts.SourceFile): number[] {
  const starts = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) starts.add(node.getStart(source));
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) if (declaration.initializer) visit(declaration.initializer);
  }
  return [...starts].sort((a, b) => a - b);
}

/** The module's source with every call building a top-level constant marked pure. */
export function markModuleScopeCallsPure(text: string, fileName: string): string {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  let marked = '';
  let from = 0;
  for (const start of moduleScopeCallStarts(source)) {
    marked += `${text.slice(from, start)}/* @__PURE__ */ `;
    from = start;
  }
  return marked + text.slice(from);
}

/**
 * A handler imports its route group (`import * as accountRoutes from ...`) and uses one route.
 * A bundler keeps a top-level constant nobody uses only when building it might have a side
 * effect, and it cannot tell that `z.object({...}).strict()` has none: so every handler would
 * build every route and schema of its group at each cold start (tens of milliseconds for the
 * larger groups). Marking those calls pure lets esbuild drop the routes and schemas the
 * handler does not reach. Only const initialisers are marked: a statement run for its effect
 * (say, `z.config(...)`) is kept as written.
 */
export const pureSchemaModules: Plugin = {
  name: 'pure-schema-modules',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: SCHEMA_MODULES }, async (args) => ({
      contents: markModuleScopeCallsPure(await readFile(args.path, 'utf8'), args.path),
      loader: 'ts',
    }));
  },
};
