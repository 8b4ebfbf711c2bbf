import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { markModuleScopeCallsPure } from '../../infra/build/pure-schema-modules';

/** What esbuild keeps of a marked schema module (`schemas.ts`) when an entry uses only its `used`. */
async function bundleUsing(schemaModule: string): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'pure-schemas-'));
  try {
    writeFileSync(join(folder, 'schemas.ts'), `const z = (globalThis as any).z;\n${schemaModule}`);
    writeFileSync(join(folder, 'main.ts'), "import { used } from './schemas';\nconsole.log(used);\n");
    const bundled = await build({ entryPoints: [join(folder, 'main.ts')], bundle: true, write: false, format: 'esm' });
    return bundled.outputFiles[0]?.text ?? '';
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('pure schema modules (bundling)', () => {
  it('marks every call that builds a top-level constant, nested ones included', () => {
    // Prepare
    const source = 'export const a = z.object({ b: z.string().min(1) }).strict();\nconst c = [d(1)];\n';

    // Act
    const marked = markModuleScopeCallsPure(source, 'schemas.ts');

    // Assess
    expect(marked).toBe(
      'export const a = /* @__PURE__ */ z.object({ b: /* @__PURE__ */ z.string().min(1) }).strict();\nconst c = [/* @__PURE__ */ d(1)];\n',
    );
  });

  it('leaves statements, functions and let bindings as written', () => {
    // Prepare
    const source =
      'z.config({ jitless: true });\nexport function f() { return g(); }\nexport const h = () => g();\nlet i = g();\n';

    // Act
    const marked = markModuleScopeCallsPure(source, 'schemas.ts');

    // Assess
    expect(marked).toBe(source);
  });

  it('writes spreads and template literals of top-level constants as pure calls, so an unused schema built with them is dropped', async () => {
    // Prepare
    const source =
      "const shape = { a: 1 };\nexport const b = z.object({ ...shape, c: 2 });\nexport const d = z.enum(KINDS, { message: `Use ${KINDS.join(', ')}` });\nexport const used = 1;\n";

    // Act
    const marked = markModuleScopeCallsPure(source, 'schemas.ts');
    const output = await bundleUsing(`const KINDS = ['x'];\n${marked}`);

    // Assess
    expect(marked).toContain('/* @__PURE__ */ Object.assign({}, shape, { c: 2 })');
    expect(marked).toContain('/* @__PURE__ */ "Use ".concat(/* @__PURE__ */ KINDS.join(\', \'))');
    expect(output).toContain('console.log(used)');
    expect(output).not.toContain('Object.assign');
    expect(output).not.toContain('concat');
  });

  it("writes a property read as a pure call, so a schema built from another's shape is dropped with it", async () => {
    // Prepare: `b` reads `a.shape`, which esbuild would keep (a getter could run), and `a` with it
    const source =
      'export const a = z.object({ x: 1 });\nexport const b = z.object(Object.assign({}, a.shape, { y: a.shape.x }));\nexport const used = z.literal(1);\n';

    // Act
    const marked = markModuleScopeCallsPure(source, 'schemas.ts');
    const output = await bundleUsing(marked);

    // Assess: the callee `z.object` is left alone; the reads became calls, and nothing of a or b is left
    expect(marked).toContain('/* @__PURE__ */ Reflect.get(/* @__PURE__ */ Reflect.get(a, "shape"), "x")');
    expect(marked).toContain('/* @__PURE__ */ z.object({ x: 1 })');
    expect(output).toContain('z.literal(1)');
    expect(output).not.toContain('shape');
    expect(output).not.toContain('z.object');
  });

  it("leaves a namespace import's member as written, so the bundler keeps only that export", () => {
    // Prepare
    const source = "import * as z from './zod';\nexport const a = z.object({ b: z.NEVER, c: shared.shape });\n";

    // Act
    const marked = markModuleScopeCallsPure(source, 'schemas.ts');

    // Assess
    expect(marked).toContain('b: z.NEVER');
    expect(marked).toContain('c: /* @__PURE__ */ Reflect.get(shared, "shape")');
  });

  it('keeps what a spread, template literal or property read means', () => {
    // Prepare
    const source =
      'const base = { a: 1, b: 2, c: 0 };\nexport const merged = { x: 0, ...base, b: 3 };\nexport const text = `n=${base.a}, m=${base.b}!`;\n' +
      'export const changed = [(base.c += 2), base.c++, delete base.x, base.c];\n';

    // Act
    const marked = markModuleScopeCallsPure(source, 'schemas.ts');
    const evaluate = new Function(`${marked.replaceAll('export ', '')}; return { merged, text, changed };`) as () => unknown;

    // Assess: rewritten, and the same values
    expect(marked).toContain('Object.assign(');
    expect(marked).toContain('.concat(');
    expect(marked).toContain('Reflect.get(base, "a")');
    expect(marked).toContain('(base.c += 2), base.c++, delete base.x, /* @__PURE__ */ Reflect.get(base, "c")');
    expect(evaluate()).toEqual({ merged: { x: 0, a: 1, b: 3, c: 0 }, text: 'n=1, m=2!', changed: [2, 2, true, 3] });
  });
});
