import { existsSync, readFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_DOC_PATH, renderApiDoc } from '../../infra/build/generate-api-doc';
import { routeEntries } from '../../shared/routes';

/** Line number (1-based) and both versions of the first line where two texts differ. */
function firstDifference(committed: string, expected: string): string {
  const a = committed.split('\n');
  const b = expected.split('\n');
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    if (a[index] !== b[index]) {
      const show = (line: string | undefined) => (line === undefined ? '(end of file)' : JSON.stringify(line));
      return `line ${index + 1}:\n  committed: ${show(a[index])}\n  generated: ${show(b[index])}`;
    }
  }
  return 'no line differs';
}

describe('docs/api.md', () => {
  let generated: string;

  beforeAll(async () => {
    // Rendering takes seconds (prettier formats every answer type): once for the suite.
    generated = await renderApiDoc();
  });

  it('is what npm run docs:api writes from the route table', () => {
    // Prepare
    const committed = existsSync(API_DOC_PATH) ? readFileSync(API_DOC_PATH, 'utf8') : '';

    // Assess
    if (committed !== generated) {
      expect.fail(`docs/api.md is stale: run npm run docs:api\nFirst difference at ${firstDifference(committed, generated)}`);
    }
  });

  it('has a section for every route', () => {
    for (const [name, route] of routeEntries) {
      expect(generated, name).toContain(`\n### ${route.method} ${route.path}\n`);
      expect(generated, name).toContain(`- **Route table:** \`${name}\`, handler \`functions/${route.handler}.ts\``);
    }
  });

  it('is left as it is by prettier', async () => {
    // Prepare
    const config = (await prettier.resolveConfig(API_DOC_PATH)) ?? {};

    // Act
    const formatted = await prettier.format(generated, { ...config, filepath: API_DOC_PATH });

    // Assess
    expect(formatted).toBe(generated);
  });
});
