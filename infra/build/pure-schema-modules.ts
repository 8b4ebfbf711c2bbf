import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/**
 * The route table and its schemas (shared/routes/*.ts, shared/schemas/*.ts): modules whose
 * top-level constants only build values (routes, zod schemas) without side effects.
 */
export const SCHEMA_MODULES = /[\\/]shared[\\/](routes|schemas)[\\/][^\\/]+\.ts$/;

const isConstStatement = (statement: ts.Statement): statement is ts.VariableStatement =>
  ts.isVariableStatement(statement) && (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;

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
    if (!isConstStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) if (declaration.initializer) visit(declaration.initializer);
  }
  return [...starts].sort((a, b) => a - b);
}

/**
 * Three expressions esbuild keeps even inside an unused pure call, since they may run code: an
 * object spread (a getter could run), a template literal with a substitution (a toString could
 * run) and a property read that is not a call's callee (a getter could run, or the object be
 * undefined). In our schema modules they only copy shapes, read a schema's `.shape` and build
 * messages, so top-level constants write them as calls with the same meaning, which the
 * marking then makes pure: `{ a, ...b }` as `Object.assign({}, { a }, b)`, `` `x${y}` `` as
 * `"x".concat(y)` and `a.shape` as `Reflect.get(a, "shape")`. Without it, a schema built from
 * another's shape, or with a message listing its choices, was built at every cold start of
 * every handler that imported its module, with every schema it read from.
 */
/**
 * `a.b` where a call cannot stand in for it: the callee of `a.b()`, `new a.b()` or `` a.b`…` ``
 * (dropped with the call anyway), or what an assignment, `++`, `--` or `delete` changes.
 */
const staysAsWritten = (node: ts.Node): boolean => {
  const { parent } = node;
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) return parent.expression === node;
  if (ts.isTaggedTemplateExpression(parent)) return parent.tag === node;
  if (ts.isBinaryExpression(parent)) {
    const assigns =
      parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
    return assigns && parent.left === node;
  }
  if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) {
    return parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken;
  }
  return ts.isDeleteExpression(parent);
};

/** Names bound by `import * as z from ...`. */
function namespaceImports(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
  }
  return names;
}

/**
 * `z.NEVER` of `import * as z`: esbuild reads it as the one export it names, and drops the rest
 * of the namespace; as `Reflect.get(z, "NEVER")` the namespace object, every export in it, would
 * be kept.
 */
const isNamespaceMember = (access: ts.PropertyAccessExpression, namespaces: ReadonlySet<string>): boolean =>
  ts.isIdentifier(access.expression) && namespaces.has(access.expression.text);

function rewriteKeptExpressions(source: ts.SourceFile): ts.SourceFile | undefined {
  const { factory } = ts;
  let rewrote = false;
  const namespaces = namespaceImports(source);
  const result = ts.transform(source, [
    (context) => (root) => {
      const visit = (node: ts.Node): ts.Node => {
        // A tagged template's literal is its tag's argument, not a string: left as written.
        if (ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isTaggedTemplateExpression(node)) return node;
        const visited = ts.visitEachChild(node, visit, context);
        if (ts.isObjectLiteralExpression(visited) && visited.properties.some(ts.isSpreadAssignment)) {
          const parts: ts.Expression[] = [factory.createObjectLiteralExpression([])];
          let run: ts.ObjectLiteralElementLike[] = [];
          for (const property of visited.properties) {
            if (!ts.isSpreadAssignment(property)) {
              run.push(property);
              continue;
            }
            if (run.length > 0) parts.push(factory.createObjectLiteralExpression(run));
            run = [];
            parts.push(property.expression);
          }
          if (run.length > 0) parts.push(factory.createObjectLiteralExpression(run));
          const assign = factory.createPropertyAccessExpression(factory.createIdentifier('Object'), 'assign');
          rewrote = true;
          return factory.createCallExpression(assign, undefined, parts);
        }
        if (
          ts.isPropertyAccessExpression(visited) &&
          !ts.isPropertyAccessChain(visited) &&
          !staysAsWritten(node) &&
          !isNamespaceMember(visited, namespaces)
        ) {
          const get = factory.createPropertyAccessExpression(factory.createIdentifier('Reflect'), 'get');
          rewrote = true;
          return factory.createCallExpression(get, undefined, [
            visited.expression,
            factory.createStringLiteral(visited.name.text),
          ]);
        }
        if (ts.isTemplateExpression(visited)) {
          const parts: ts.Expression[] = [];
          for (const span of visited.templateSpans) {
            parts.push(span.expression);
            if (span.literal.text) parts.push(factory.createStringLiteral(span.literal.text));
          }
          const concat = factory.createPropertyAccessExpression(factory.createStringLiteral(visited.head.text), 'concat');
          rewrote = true;
          return factory.createCallExpression(concat, undefined, parts);
        }
        return visited;
      };
      return factory.updateSourceFile(
        root,
        root.statements.map((statement) => (isConstStatement(statement) ? (visit(statement) as ts.Statement) : statement)),
      );
    },
  ]);
  const [transformed] = result.transformed;
  result.dispose();
  // Undefined when nothing needed rewriting: the caller then keeps the text as written.
  return rewrote ? (transformed as ts.SourceFile) : undefined;
}

/** The module's source with every call building a top-level constant marked pure. */
export function markModuleScopeCallsPure(text: string, fileName: string): string {
  const original = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const rewritten = rewriteKeptExpressions(original);
  // Printed and reparsed, so the positions the marking inserts at are those of the text it returns.
  if (rewritten) text = ts.createPrinter().printFile(rewritten);
  const source = rewritten ? ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true) : original;
  let marked = '';
  let from = 0;
  for (const start of moduleScopeCallStarts(source)) {
    marked += `${text.slice(from, start)}/* @__PURE__ */ `;
    from = start;
  }
  return marked + text.slice(from);
}

/** Marked texts by path: the bundler builds handler after handler, each build loading the same modules. */
const marked = new Map<string, { text: string; contents: string }>();

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
    pluginBuild.onLoad({ filter: SCHEMA_MODULES }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const known = marked.get(args.path);
      if (known?.text === text) return { contents: known.contents, loader: 'ts' };
      const contents = markModuleScopeCallsPure(text, args.path);
      marked.set(args.path, { text, contents });
      return { contents, loader: 'ts' };
    });
  },
};
