import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAsFunction } from '../../functions/lib/function-environment';
import type { DeploymentSettings } from '../../infra/function-environment';
import { functionScope } from '../../infra/local/functions';
import { EVERY_FUNCTION } from '../../shared/functions';
import { pathParamNames, type RouteDefinition, routeEntries, routes } from '../../shared/routes';

const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions', import.meta.url));
const ROUTES_DIR = fileURLToPath(new URL('../../shared/routes', import.meta.url));
/** The apps whose screens the page renderer (functions/web-pages) shows as HTML. */
const PAGE_RENDERER_READS_FROM = ['ranking', 'stories'];

/**
 * Every file of an app folder (functions/<app>/*.ts) is a handler: of a route or of a scheduled
 * job. An app's other code lives in functions/<app>/lib/, shared code in functions/lib/.
 */
function appHandlerFiles(): string[] {
  return readdirSync(FUNCTIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'lib')
    .flatMap((app) =>
      readdirSync(join(FUNCTIONS_DIR, app.name), { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => `${app.name}/${entry.name.replace(/\.ts$/, '')}`),
    )
    .sort();
}

/** The app folders a file under functions/ imports from (its own included); functions/lib is shared. */
function importedApps(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const apps = new Set<string>();
  for (const match of source.matchAll(/from '(\.[^']+)'/g)) {
    const target = relative(FUNCTIONS_DIR, join(dirname(file), match[1] as string)).split(sep);
    if (target[0] && target[0] !== '..' && target[0] !== 'lib' && target.length > 1) apps.add(target[0]);
  }
  return [...apps];
}

function allFunctionFiles(dir: string = FUNCTIONS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allFunctionFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

interface SchemaNode {
  _zod: { def: Record<string, unknown> };
}
const isSchema = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && '_zod' in value;

/**
 * Every object schema inside `schema`, with where it is ("response.items<element>.author"):
 * through fields, wrappers (optional, nullable, pipe…), array elements, union options, records
 * and lazy schemas.
 */
function objectSchemasIn(schema: SchemaNode, where: string, found = new Map<SchemaNode, string>()): Map<SchemaNode, string> {
  if (found.has(schema)) return found;
  const def = schema._zod.def;
  if (def.type === 'object') found.set(schema, where);
  else found.set(schema, '');
  for (const [key, value] of Object.entries(def)) {
    if (key === 'shape' && typeof value === 'object' && value !== null) {
      for (const [field, fieldSchema] of Object.entries(value)) {
        if (isSchema(fieldSchema)) objectSchemasIn(fieldSchema, `${where}.${field}`, found);
      }
    } else if (isSchema(value)) objectSchemasIn(value, `${where}<${key}>`, found);
    else if (Array.isArray(value))
      value.forEach((item, index) => isSchema(item) && objectSchemasIn(item, `${where}<${key}${index}>`, found));
    else if (key === 'getter' && typeof value === 'function') objectSchemasIn(value() as SchemaNode, `${where}<lazy>`, found);
  }
  return found;
}

/** A deployment with every setting filled, so each handler can be imported as its own function. */
const DEPLOYMENT: DeploymentSettings = {
  common: { STAGE: 'test', TABLE_NAME: 'route-table-test', ALLOWED_ORIGINS: 'https://app.example.com' },
  email: { MAIL_FROM: 'Test <test@example.com>' },
  bucket: { FILE_BUCKET_NAME: 'route-table-files' },
  payments: { PAYMENT_GATEWAY: 'local', PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9/route-table' },
  queues: {
    'source-collection': { SOURCE_COLLECTION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/test.fifo' },
    'notification-fanout': { NOTIFICATION_FANOUT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/test' },
    'publication-digest': { PUBLICATION_DIGEST_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/test-digest' },
  },
  realtime: { REALTIME_MANAGEMENT_ENDPOINT: 'https://realtime.example/local' },
  settings: {},
};

/** A handler module as Lambda loads it: with its route's own environment, nothing else. */
async function importHandlerModule(name: string, route: RouteDefinition): Promise<{ handler?: { route?: unknown } }> {
  const file = join(FUNCTIONS_DIR, `${route.handler}.ts`);
  return runAsFunction(functionScope(name, route.capabilities, DEPLOYMENT), () => import(/* @vite-ignore */ file));
}

describe('route table', () => {
  it('has at least one route', () => {
    expect(routeEntries.length).toBeGreaterThan(0);
  });

  it.each(routeEntries)('%s has a handler file that exports handler', async (name, route) => {
    // Prepare
    const file = join(FUNCTIONS_DIR, `${route.handler}.ts`);
    expect(existsSync(file), `functions/${route.handler}.ts is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/export const handler\b/);

    // Act: importing runs the handler's module scope, which reads its config and settings.
    const module = await importHandlerModule(name, route);

    // Assess
    expect(typeof module.handler).toBe('function');
  });

  it('references every file of an app folder from exactly one route, job, queue consumer or realtime handler', () => {
    // Prepare
    const files = appHandlerFiles();

    // Act
    const referenced = EVERY_FUNCTION.map((entry) => entry.handler);

    // Assess
    expect(files.length).toBeGreaterThan(0);
    expect([...referenced].sort()).toEqual(files);
  });

  it.each(routeEntries)('%s is served by a handler built for that same route', async (name, route) => {
    // Act
    const module = await importHandlerModule(name, route);

    // Assess: a copied handler file that still passes another route to createHandler fails here.
    expect(module.handler?.route).toBe(route);
  });

  it('keeps apps apart: no app imports another app, only functions/lib', () => {
    for (const file of allFunctionFiles().filter((candidate) => !relative(FUNCTIONS_DIR, candidate).startsWith(`lib${sep}`))) {
      // Prepare
      const ownApp = relative(FUNCTIONS_DIR, file).split(sep)[0];
      // The page renderer shows other apps' screens as HTML, read with those apps' own read
      // functions, so a page and the API answer the same.
      const allowed: readonly string[] = ownApp === 'web-pages' ? PAGE_RENDERER_READS_FROM : [];

      // Assess
      expect(
        importedApps(file).filter((app) => app !== ownApp && !allowed.includes(app)),
        relative(FUNCTIONS_DIR, file),
      ).toEqual([]);
    }
    for (const file of allFunctionFiles(join(FUNCTIONS_DIR, 'lib'))) {
      expect(importedApps(file), `functions/lib must not depend on an app: ${relative(FUNCTIONS_DIR, file)}`).toEqual([]);
    }
  });

  it("lists every route a group module exports in that group's listing, once", async () => {
    // Prepare
    const groupFiles = readdirSync(ROUTES_DIR).filter((file) => !['index.ts', 'define-route.ts'].includes(file));

    for (const file of groupFiles) {
      // Act
      const group = (await import(join(ROUTES_DIR, file))) as Record<string, unknown>;
      const [listingName, ...otherListings] = Object.keys(group).filter((name) => /^all[A-Z]\w*Routes$/.test(name));
      const listing = (listingName ? group[listingName] : {}) as Record<string, unknown>;
      const exported = Object.keys(group).filter((name) => !/^all[A-Z]\w*Routes$/.test(name));

      // Assess: a route left out of the listing would be missing from CDK, the local runtime and the docs.
      expect({ file, listings: otherListings.length + (listingName ? 1 : 0) }).toEqual({ file, listings: 1 });
      expect({ file, names: Object.keys(listing).sort() }).toEqual({ file, names: exported.sort() });
      for (const name of exported) expect(listing[name]).toBe(group[name]);
    }
  });

  it('puts every path under /api/', () => {
    for (const [name, route] of routeEntries) expect(route.path, name).toMatch(/^\/api\//);
  });

  it('gives no path a trailing slash: API Gateway takes no such route key, and matches `/a/` to `/a` itself', () => {
    for (const [name, route] of routeEntries) expect(route.path, name).not.toMatch(/\/$/);
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

  it('answers with strict objects only: a field the schema does not declare fails the API client, not a leak that passes', () => {
    // Act
    const loose = routeEntries.flatMap(([name, route]) =>
      [...objectSchemasIn(route.response as unknown as SchemaNode, `${name}.response`)]
        .filter(
          ([schema, where]) => where !== '' && (schema._zod.def.catchall as SchemaNode | undefined)?._zod.def.type !== 'never',
        )
        .map(([, where]) => where),
    );

    // Assess
    expect(loose).toEqual([]);
  });

  it('reads path params with the pathParamNames helper', () => {
    expect(pathParamNames('/api/x/{slug}/y/{id}')).toEqual(['slug', 'id']);
    expect(pathParamNames('/api/x')).toEqual([]);
  });
});
