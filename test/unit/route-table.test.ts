import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { pathParamNames, routeEntries, routes } from '../../shared/routes';

const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions', import.meta.url));
const ROUTES_DIR = fileURLToPath(new URL('../../shared/routes', import.meta.url));
const NOT_HANDLER_FOLDERS = new Set(['lib']);

/** Every file under functions/<app>/ that builds an HTTP handler with createHandler. */
function handlerFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_HANDLER_FOLDERS.has(entry.name)) walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        if (/\bcreateHandler\s*\(/.test(readFileSync(full, 'utf8'))) {
          found.push(relative(FUNCTIONS_DIR, full).split(sep).join('/').replace(/\.ts$/, ''));
        }
      }
    }
  };
  walk(FUNCTIONS_DIR);
  return found.sort();
}

describe('route table', () => {
  beforeAll(() => {
    process.env.TABLE_NAME ??= 'route-table-test';
    process.env.ALLOWED_ORIGINS ??= 'https://app.example.com';
  });

  it('has at least one route', () => {
    expect(routeEntries.length).toBeGreaterThan(0);
  });

  it.each(routeEntries)('%s has a handler file that exports handler', async (_name, route) => {
    // Prepare
    const file = join(FUNCTIONS_DIR, `${route.handler}.ts`);
    expect(existsSync(file), `functions/${route.handler}.ts is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/export const handler\b/);

    // Act
    const module = (await import(/* @vite-ignore */ file)) as { handler?: unknown };

    // Assess
    expect(typeof module.handler).toBe('function');
  });

  it('references every handler file from exactly one route', () => {
    // Prepare
    const files = handlerFiles();

    // Act
    const referenced = routeEntries.map(([, route]) => route.handler);

    // Assess
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(
        referenced.filter((handler) => handler === file),
        `functions/${file}.ts should be the handler of exactly one route`,
      ).toHaveLength(1);
    }
    expect([...referenced].sort()).toEqual(files);
  });

  it('puts every path under /api/', () => {
    for (const [name, route] of routeEntries) expect(route.path, name).toMatch(/^\/api\//);
  });

  it('has no two routes with the same method and path', () => {
    // Act
    const keys = routeEntries.map(([, route]) => `${route.method} ${route.path}`);

    // Assess
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has a params schema key for every {param} in a path, and no extra keys', () => {
    for (const [name, route] of routeEntries) {
      // Prepare
      const names = pathParamNames(route.path);
      const shape = (route.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};

      // Assess
      expect(Object.keys(shape).sort(), name).toEqual([...names].sort());
    }
  });

  it('gives every route its own name and handler', async () => {
    // Prepare: the route groups (…Routes exports of shared/routes/*.ts) merged into `routes`.
    const groupNames: string[] = [];
    for (const file of readdirSync(ROUTES_DIR).filter((name) => name.endsWith('.ts') && name !== 'index.ts')) {
      const module = (await import(/* @vite-ignore */ join(ROUTES_DIR, file))) as Record<string, unknown>;
      for (const [exportName, value] of Object.entries(module)) {
        if (exportName.endsWith('Routes') && value && typeof value === 'object') groupNames.push(...Object.keys(value));
      }
    }

    // Act
    const names = routeEntries.map(([name]) => name);
    const handlers = routeEntries.map(([, route]) => route.handler);

    // Assess
    expect(new Set(names).size).toBe(names.length);
    // A name used by two route groups would be silently overwritten when they are merged.
    expect(new Set(groupNames).size).toBe(groupNames.length);
    expect(Object.keys(routes).sort()).toEqual([...groupNames].sort());
    expect(new Set(handlers).size).toBe(handlers.length);
  });

  it('reads path params with the pathParamNames helper', () => {
    expect(pathParamNames('/api/x/{slug}/y/{id}')).toEqual(['slug', 'id']);
    expect(pathParamNames('/api/x')).toEqual([]);
  });
});
