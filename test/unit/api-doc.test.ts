import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_DOC_PATH, renderApiDoc } from '../../infra/build/generate-api-doc';
import { capabilitiesOf, SETTING_GROUPS } from '../../shared/capabilities';
import { routeEntries } from '../../shared/routes';

/** Where the deploy settings and secrets are documented, each by name. */
const OPERATIONS = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

/** GOOGLE_CLIENT_ID -> googleClientId: the name infra/cdk/app.ts reads a setting from (`-c googleClientId=...`). */
const contextKeyOf = (variable: string) =>
  variable.toLowerCase().replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

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

describe('docs/operations.md', () => {
  it.each(Object.entries(SETTING_GROUPS))('names every deploy setting of the %s group', (_group, { variables, secrets }) => {
    for (const variable of variables) expect(OPERATIONS, variable).toContain(`\`${contextKeyOf(variable)}\``);
    for (const secret of secrets) expect(OPERATIONS, secret).toContain(`\`${secret}\``);
  });
});

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Documents that are not in the repo: a comment pointing at one tells a reader nothing. */
const MISSING_DOCUMENT = /\b(?:SPEC|DESIGN)\.md\b/;
const UNTRACKED_FOLDERS = new Set(['node_modules', '.git', '.data', 'dist', 'cdk.out', 'coverage', 'test-results']);

/** The repo's tracked files; without git (an unpacked archive), every file outside the generated folders. */
function repoFiles(dir = ''): string[] {
  if (dir === '') {
    try {
      return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    } catch {
      // Not a git checkout: walk the folders instead.
    }
  }
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return UNTRACKED_FOLDERS.has(entry.name) ? [] : repoFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

describe('the repo documents itself', () => {
  it('has no source or doc file pointing to a document that is not in the repo', () => {
    // Prepare
    const files = repoFiles().filter((file) => existsSync(join(REPO_ROOT, file)) && statSync(join(REPO_ROOT, file)).isFile());

    // Act
    const mentions = files.flatMap((file) =>
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (MISSING_DOCUMENT.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );

    // Assess
    expect(files.length).toBeGreaterThan(100);
    expect(mentions, 'Say the reason in words: these files point to a document the repo does not have').toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const architecture = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const section = (heading: string) => architecture.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';

  it('names every field of Capabilities and every setting group in its Capabilities section', () => {
    // Prepare: a function declared with nothing, whose capabilities still list every field.
    const fields = Object.keys(capabilitiesOf({}, { table: 'read' }));

    // Act
    const capabilities = section('Capabilities');

    // Assess
    const unnamed = [...fields, ...Object.keys(SETTING_GROUPS)].filter((name) => !capabilities.includes(`\`${name}\``));
    expect(unnamed).toEqual([]);
  });
});

describe('docs/data-model.md', () => {
  it('has a row for every entity file', () => {
    // Prepare
    const dataModel = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');
    const entitiesDir = join(REPO_ROOT, 'functions/lib/db/entities');
    const entityFiles = readdirSync(entitiesDir).filter((file) =>
      /export const create\w+Entity/.test(readFileSync(join(entitiesDir, file), 'utf8')),
    );

    // Act
    const missing = entityFiles.filter((file) => !dataModel.includes(`\`${file}\``));

    // Assess
    expect(entityFiles.length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});
