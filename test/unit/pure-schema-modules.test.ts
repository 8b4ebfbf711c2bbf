import { describe, expect, it } from 'vitest';
import { markModuleScopeCallsPure } from '../../infra/build/pure-schema-modules';

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
});
