import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { MAX_BODY_BYTES } from '../../functions/lib/http/parse-input';
import { APPLICATION_ID_HEADER } from '../../shared/constants';
import { accessLevels, pathParamNames, type RouteDefinition, routeEntries } from '../../shared/routes';
import {
  type Answer,
  type ApiClient,
  type AppCredentials,
  type CallOptions,
  type Caller,
  createApiClient,
  type ErrorAnswer,
  isRedirectRoute,
  type Session,
  type SignedInUser,
  takesNoBody,
} from '../support/api-client';
import { jsonSchemaOf } from '../support/fuzz/schema-arbitrary';
import { settlePass } from '../../infra/build/route-costs';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

/**
 * Rules every route keeps, checked over HTTP for every entry of the route table: a route added
 * to the table gets its rows here without a test edit.
 */

const FOREIGN_ORIGIN = 'https://evil.example';
const UNKNOWN_FIELD = 'matrixUnknownField';
const DAY_MS = 24 * 3600 * 1000;
/**
 * Path parameters only need to be well formed: the body is validated together with them, so a
 * refused placeholder would hide what a row is about. The first candidate the route accepts wins.
 */
/**
 * Values for the parameters no list in the schema names: an id-like value, the storefront's typed
 * ids (a product, a grade, a cart item), and a year and a month of the rankings archive (one
 * long before any history). A parameter with a list of values (an enum: a like's status, a
 * feed's format) tries that list first, read from its schema, so a new one needs nothing here.
 */
const PLACEHOLDERS = [
  'matrix-placeholder-0123456789',
  'prd_matrixplaceholder012',
  'grd_matrixplaceholder012',
  'cit_matrixplaceholder012',
  '2001',
  '03',
];

/** A path parameter's candidates: its schema's own values where it lists them, then the placeholders. */
function candidatesFor(route: RouteDefinition, name: string): string[] {
  const listed = jsonSchemaOf(route.params).properties?.[name]?.enum ?? [];
  return [...listed.filter((value): value is string => typeof value === 'string'), ...PLACEHOLDERS];
}

let runtime: TestRuntime;
let api: ApiClient;
let user: SignedInUser;
let superuser: SignedInUser;
let app: AppCredentials;
/** Whose session the old-session rows age, again for each row. */
let veteran: SignedInUser;

/** One row per route that `keep` selects, named `METHOD path: expectation`. */
const rowsFor = (expectation: string, keep: (route: RouteDefinition) => boolean): [string, RouteDefinition][] =>
  routeEntries
    .map(([, route]) => route)
    .filter(keep)
    .map((route) => [`${route.method} ${route.path}: ${expectation}`, route]);

/**
 * State changes need the app-id header and an allowed Origin, whatever the method: a GET that
 * changes state (logout) is as forgeable as a POST. The route table says which routes change
 * state; the redirect routes the browser reaches by navigating (a provider's callback, a sibling
 * app's sign-on) cannot carry the header and are protected otherwise (state, binding cookie).
 */
const changesState = (route: RouteDefinition) => route.stateChanging;

/** Values for path parameters; each parameter takes the first combination the route's schema accepts. */
function placeholderParams(route: RouteDefinition): Record<string, string> {
  const names = pathParamNames(route.path);
  const combinations = names.reduce<Record<string, string>[]>(
    (partial, name) =>
      partial.flatMap((params) => candidatesFor(route, name).map((candidate) => ({ ...params, [name]: candidate }))),
    [{}],
  );
  const fitting = combinations.find((params) => route.params.safeParse(params).success);
  if (fitting) return fitting;
  throw new Error(`${route.method} ${route.path}: no placeholder fits its path parameters; add one that does`);
}

/** Someone the access check lets through: an app where an app is allowed (or asked for), else a user or superuser. */
function passingCaller(route: RouteDefinition, options: { appCredentials: boolean }): Caller | undefined {
  const levels = accessLevels(route.access);
  if (levels.includes('public')) return undefined;
  if (levels.includes('app') && (options.appCredentials || !levels.includes('superuser'))) return app;
  if (levels.includes('user')) return user;
  return superuser;
}

/** Routes no ordinary signed-in user may call: superuser or app routes. */
const forbidsPlainUsers = (route: RouteDefinition) => {
  const levels = accessLevels(route.access);
  return !levels.includes('public') && !levels.includes('user');
};

const call = (route: RouteDefinition, options: CallOptions<RouteDefinition>) =>
  api.call(route, { params: placeholderParams(route), ...options });

/** A refusal in the API's error shape, with this status. */
function expectRefusal(answer: Answer<RouteDefinition>, status: number): asserts answer is ErrorAnswer {
  expect(answer.status, answer.text.slice(0, 500)).toBe(status);
  if (answer.ok) throw new Error('expected an error answer');
  expect(typeof answer.body.message).toBe('string');
  expect(typeof answer.body.code).toBe('string');
}

beforeAll(async () => {
  // No demo data, but one ranking run, so board routes answer 200 rather than "being computed";
  // no edge cache, so every row reaches its handler instead of an answer kept from an earlier row.
  runtime = await startTestRuntime({ rank: true, edgeCache: false });
  api = createApiClient(runtime);
  [user, superuser, veteran, app] = await Promise.all([
    api.signIn('matrix-user'),
    api.signIn('matrix-admin', { superuser: true }),
    api.signIn('matrix-veteran', { superuser: true }),
    api.registerApp('matrix-app'),
  ]);
});

afterAll(async () => {
  await runtime?.close();
});

describe('access', () => {
  it.each(rowsFor('no session → 401', (route) => route.access !== 'public'))('%s', async (_title, route) => {
    // Act
    const answer = await call(route, {});

    // Assess
    expectRefusal(answer, 401);
    expect(answer.body.code).toBe('UNAUTHORIZED');
  });

  it.each(rowsFor('a signed-in non-superuser → 403', forbidsPlainUsers))('%s', async (_title, route) => {
    // Act
    const answer = await call(route, { as: user });

    // Assess
    expectRefusal(answer, 403);
    expect(answer.body.code).toBe('FORBIDDEN');
  });
});

describe('cross-site requests', () => {
  it.each(rowsFor(`no ${APPLICATION_ID_HEADER} header → 403`, changesState))('%s', async (_title, route) => {
    // Act
    const answer = await call(route, {
      as: passingCaller(route, { appCredentials: false }),
      headers: { [APPLICATION_ID_HEADER]: undefined },
    });

    // Assess: refused for the missing header, not by the handler for something else.
    expectRefusal(answer, 403);
    expect(answer.body.message).toContain(APPLICATION_ID_HEADER);
  });

  it.each(rowsFor(`Origin ${FOREIGN_ORIGIN} → 403`, changesState))('%s', async (_title, route) => {
    // Act
    const answer = await call(route, {
      as: passingCaller(route, { appCredentials: false }),
      headers: { origin: FOREIGN_ORIGIN },
    });

    // Assess: refused for the origin, not by the handler for something else.
    expectRefusal(answer, 403);
    expect(answer.body.message).toContain(FOREIGN_ORIGIN);
  });

  it.each(rowsFor(`a navigation without ${APPLICATION_ID_HEADER} is not refused as cross-site`, isRedirectRoute))(
    '%s',
    async (_title, route) => {
      // Act
      const answer = await call(route, {});

      // Assess: a redirect, or a refusal of the (missing) input, but never the cross-site 403.
      expect(answer.status, answer.text.slice(0, 500)).not.toBe(403);
      expect(answer.status).toBeLessThan(500);
    },
  );
});

describe('request bodies', () => {
  const hasBody = (route: RouteDefinition) => !takesNoBody(route);

  it.each(rowsFor('malformed JSON → 400', hasBody))('%s', async (_title, route) => {
    // Act
    const answer = await call(route, { as: passingCaller(route, { appCredentials: true }), rawBody: '{"matrix": ' });

    // Assess
    expectRefusal(answer, 400);
    expect(answer.body.message).toMatch(/JSON/);
  });

  it.each(rowsFor('an unknown body field → 400', hasBody))('%s', async (_title, route) => {
    // Act
    const answer = await call(route, {
      as: passingCaller(route, { appCredentials: true }),
      rawBody: JSON.stringify({ [UNKNOWN_FIELD]: true }),
    });

    // Assess: whatever else the body lacks, the unknown field is named.
    expectRefusal(answer, 400);
    expect(answer.body.fields).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'body', field: UNKNOWN_FIELD })]));
  });

  it.each(rowsFor(`a body over ${MAX_BODY_BYTES / 1024 / 1024} MB → 413`, hasBody))('%s', async (_title, route) => {
    // Prepare: valid JSON, one byte over the limit, so only its size is wrong.
    const prefix = '{"matrixPadding":"';
    const oversized = `${prefix}${'x'.repeat(MAX_BODY_BYTES - prefix.length - 1)}"}`;
    expect(Buffer.byteLength(oversized)).toBe(MAX_BODY_BYTES + 1);

    // Act
    const answer = await call(route, { as: passingCaller(route, { appCredentials: true }), rawBody: oversized });

    // Assess
    expectRefusal(answer, 413);
  });
});

describe('sessions due for renewal', () => {
  /**
   * A superuser's session (so every access level lets it in), last used two days ago. Reads share
   * the veteran's; a GET that writes may end sessions (a logout ends every session of its user),
   * so it gets a user of its own.
   */
  async function oldSession(route: RouteDefinition): Promise<Session> {
    const session = route.capabilities.table === 'read-write' ? await api.signIn('matrix-writer', { superuser: true }) : veteran;
    const tokenHash = hashToken(session.token);
    await getDb()
      .entities.session.patch({ tokenHash })
      .set({ lastUsedAt: new Date(Date.now() - 2 * DAY_MS).toISOString() })
      .go();
    const { data: aged } = await getDb().entities.session.get({ tokenHash }).go({ consistent: true });
    expect(Date.now() - Date.parse(aged?.lastUsedAt ?? ''), 'the session is due for renewal').toBeGreaterThan(DAY_MS);
    return session;
  }

  it.each(rowsFor('an old session → not 5xx', (route) => route.method === 'GET'))('%s', async (_title, route) => {
    // Prepare
    const session = await oldSession(route);

    // Act
    const answer = await call(route, { as: session });

    // Assess
    expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(500);
    if (!answer.ok) expectRefusal(answer, answer.status);
  });
});

const routeNames = new Map(routeEntries.map(([name, route]) => [route, name]));
const routeNameOf = (route: RouteDefinition): string => routeNames.get(route) ?? route.path;

describe('table units per request', () => {
  /** GET routes measured side by side: one at a time, the ~120 calls added seconds to the suite. */
  const SIDE_BY_SIDE = 4;

  /**
   * One GET route as its usual caller: a public one with no session (most of its readers have
   * none), any other with a current session, so no call pays a renewal (the rows above age
   * theirs). A read-only route is called twice and measured on the second call, as a warm Lambda
   * instance answers most requests: its caches (a board's manifest for 30 s, a visitor's feed page
   * for 15 s) would otherwise be warm or not depending on how long the rows above took.
   */
  async function measure(route: RouteDefinition): Promise<string | undefined> {
    // A GET that writes may end sessions (logout), so it gets a session of its own.
    const levels = accessLevels(route.access);
    const readOnly = route.capabilities.table !== 'read-write';
    const caller = levels.includes('public')
      ? undefined
      : readOnly
        ? superuser
        : await api.signIn('matrix-costs', { superuser: true });
    if (readOnly) {
      const warmUp = await call(route, { as: caller });
      // A refusal (a placeholder id that names nothing) is not measured: no second call for it.
      if (warmUp.status < 200 || warmUp.status >= 300) return failureOf(route, warmUp);
      runtime.tableUnits.forget(routeNameOf(route));
    }
    return failureOf(route, await call(route, { as: caller }));
  }

  function failureOf(route: RouteDefinition, answer: Answer<RouteDefinition>): string | undefined {
    return answer.status < 500 ? undefined : `${route.method} ${route.path}: ${answer.status} ${answer.text.slice(0, 300)}`;
  }

  it('no route takes more table units a request than docs/route-costs.json records', async () => {
    // Prepare: every successful answer's DynamoDB units are tallied by the runtime, and so are the
    // sign-ins made here.
    runtime.tableUnits.reset();
    const queue = routeEntries.map(([, route]) => route).filter((route) => route.method === 'GET');
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: SIDE_BY_SIDE }, async () => {
        for (let route = queue.shift(); route; route = queue.shift()) {
          const failure = await measure(route);
          if (failure) failures.push(failure);
        }
      }),
    );
    expect(failures, failures.join('\n')).toEqual([]);
    const measured = runtime.tableUnits.byRoute();
    expect(measured.size, 'the calls above measured routes').toBeGreaterThan(0);

    // Act: `npm run docs:costs` records this run instead of checking it.
    const problems = settlePass('matrix', measured);

    // Assess
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
