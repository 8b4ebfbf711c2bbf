import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { MAX_BODY_BYTES } from '../../functions/lib/http/parse-input';
import { APPLICATION_ID_HEADER } from '../../shared/constants';
import { archiveMonth } from '../../functions/ranking/lib/month-archive';
import { addMonths, monthOfDate } from '../../shared/archive-months';
import { accessLevels, pathParamNames, type RouteDefinition, routeEntries, routes } from '../../shared/routes';
import {
  type Answer,
  type ApiClient,
  type AppCredentials,
  type CallOptions,
  type Caller,
  createApiClient,
  type ErrorAnswer,
  expectOk,
  isRedirectRoute,
  type Session,
  type SignedInUser,
  takesNoBody,
} from '../support/api-client';
import { collectKnownValues, knownAddressings, routeInputArbitrary } from '../support/fuzz/route-inputs';
import { jsonSchemaOf } from '../support/fuzz/schema-arbitrary';
import { settlePass } from '../../infra/build/route-costs';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { addGrade, addProduct, openShop } from '../support/penpay';
import { storyInTable } from '../support/stories';
import { patternedBytes, sentTransfer } from '../support/transfers';

/**
 * Rules every route keeps, checked over HTTP for every entry of the route table: a route added
 * to the table gets its rows here without a test edit.
 */

const FOREIGN_ORIGIN = 'https://evil.example';
const UNKNOWN_FIELD = 'matrixUnknownField';
const DAY_MS = 24 * 3600 * 1000;
/** Enough for the boards and topics to have rows; more only costs seeding time. */
const MATRIX_PUBLICATIONS = 40;
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
  // A few publications with their history, ranked, so board and publication routes answer 200
  // (their costs are measured below) rather than "being computed"; no edge cache, so every row
  // reaches its handler instead of an answer kept from an earlier row.
  runtime = await startTestRuntime({ seedPublications: MATRIX_PUBLICATIONS, edgeCache: false });
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
  /** Ways to address one route with real objects tried before giving up on it: each refusal is one quick call. */
  const ADDRESSINGS_TRIED = 40;
  /** The write routes' bodies: the same from run to run, and a new route's changes no other's. */
  const WRITE_BODY_SEED = 20_261_207;
  /** Where the story below is from: the site routes' host. */
  const STORY_HOST = 'blog.example.com';
  /**
   * Ids and names the GET routes' answers showed, by the field that names them, and the objects
   * the superuser owns (below): what a route whose placeholders name nothing is addressed with.
   */
  const known = new Map<string, string[]>();
  let learning = false;
  /**
   * Only the objects made here, in the order they were made: the writes address these, so which
   * object a write lands on never depends on which answer came first above.
   */
  const owned = new Map<string, string[]>();

  /**
   * Objects of the apps the superuser owns (the caller of the user routes), with the plain user
   * as their reader (a comment, a like, a transfer's recipient), so the routes people use most
   * (a publication's page, a story and its comments, a package and its downloads, a shop's
   * grade, an archived month) are measured here: the same objects, the same requests, in the
   * same order from run to run.
   */
  beforeAll(async () => {
    const suite = { runtime, api };
    const storyId = await storyInTable(superuser, 'A story to read', new Date(), { url: `https://${STORY_HOST}/a-story` });
    // Two comments: a moderator's removal takes the first, and its author deletes the second.
    const comments: string[] = [];
    for (const body of ['Worth reading.', 'And the follow-up too.']) {
      const comment = await api.call(routes.addStoryComment, { params: { id: storyId }, body: { body }, as: user });
      expectOk(comment, 201);
      comments.push(comment.body.comment.id);
    }
    // Opened, so the reader may like it.
    expect((await api.call(routes.openStory, { params: { id: storyId }, as: user })).status).toBe(302);
    const board = await api.call(routes.loadPubs, {});
    expectOk(board);
    const { transferId, fileIds } = await sentTransfer(api, superuser, {
      files: [{ name: 'notes.txt', bytes: patternedBytes(2_000), type: 'text/plain' }],
      recipients: [user.email],
    });
    const draft = await api.call(routes.createTransfer, { body: { title: 'Draft' }, as: superuser });
    expectOk(draft, 201);
    const pending = await api.call(routes.createBRecord, {
      body: { transferId: draft.body.id, name: 'pending.pdf', size: 10_000, type: 'application/pdf' },
      as: superuser,
    });
    expectOk(pending, 201);
    // Two file requests: closing takes the first, a visitor starts an upload to the second.
    const requests: string[] = [];
    for (const title of ['Your photos', 'Your drafts']) {
      const request = await api.call(routes.createFileRequest, { body: { title }, as: superuser });
      expectOk(request, 201);
      requests.push(request.body.id);
    }
    const shop = await openShop(suite, 'matrix-shop', { owner: superuser });
    const product = await addProduct(suite, shop, 'Matrix poster');
    const grade = await addGrade(suite, shop, product, 'A2', 1_500);
    const cartItem = await api.call(routes.addCartItem, { body: { productStockGradeId: grade.id, quantity: 1 }, as: user });
    expectOk(cartItem);
    // Last month's archive only (the scheduled job would archive every closed month of the seed's history).
    const lastMonth = addMonths(monthOfDate(new Date()), -1);
    expect((await archiveMonth(getDb(), lastMonth, new Date())).archived).toBe(true);
    for (const [name, values] of Object.entries({
      id: [storyId, transferId, ...fileIds, draft.body.id, pending.body.file.id, ...requests, superuser.userId],
      commentId: comments,
      parentId: comments.slice(0, 1),
      relationId: fileIds,
      recordId: fileIds,
      cartItemId: [cartItem.body.id],
      slug: board.body.items.slice(0, 1).map((item) => item.slug),
      userId: [superuser.userId],
      host: [STORY_HOST],
      productStockId: [product.id],
      productStockGradeId: [grade.id],
      // A change of what a new product and grade are (public): the first value of the list would change nothing.
      visibility: ['unlisted'],
      year: [lastMonth.slice(0, 4)],
      month: [lastMonth.slice(5, 7)],
      email: [user.email],
      person: [user.username],
      // A file's size, for the writes that declare files (a visitor's upload to a file request):
      // the schema alone allows sizes no plan takes.
      size: ['2000'],
    })) {
      known.set(name, values);
      owned.set(name, [...values]);
    }
  });

  /**
   * One GET route as its usual caller: a public one with no session (most of its readers have
   * none), or with a current session of a reader where it wants one (a package opens to its
   * recipients), any other with a current session of the superuser, the owner of the objects
   * above; so no call pays a renewal (the rows above age theirs). A read-only route that names
   * no object (a board, a list of one's own) is called twice and measured on the second call, as
   * a warm Lambda instance answers most requests: its caches (a board's manifest for 30 s, a
   * visitor's feed page for 15 s) would otherwise be warm or not depending on how long the rows
   * above took. One that names an object (a publication's page, a story) is measured on its
   * first call: a warm instance seldom holds the one of thousands asked for. The answer of the
   * measured call, or of the refused warm-up.
   */
  async function measure(
    route: RouteDefinition,
    addressing: Partial<CallOptions<RouteDefinition>>,
    signedIn: boolean,
  ): Promise<Answer<RouteDefinition>> {
    // A GET that writes may end sessions (logout), so it gets a session of its own.
    const readOnly = readsOnly(route);
    const person = accessLevels(route.access).includes('public') ? user : superuser;
    const caller = !signedIn
      ? undefined
      : readOnly
        ? person
        : await api.signIn('matrix-costs', { superuser: person.isSuperUser, email: person.email });
    const onObject = Object.keys(addressing).length > 0;
    if (readOnly && !onObject) {
      const warmUp = await call(route, { ...addressing, as: caller });
      // A refusal (a placeholder id that names nothing) is not measured: no second call for it.
      if (!warmUp.ok) return warmUp;
      runtime.tableUnits.forget(routeNameOf(route));
    }
    return call(route, { ...addressing, as: caller });
  }

  /**
   * The route at its placeholders, then, while it refuses, at each way the known objects address
   * it, up to the first success. Undefined, or what went wrong (a 5xx).
   */
  async function measureGet(route: RouteDefinition): Promise<string | undefined> {
    const addressings = [{}, ...knownAddressings(route, known, ADDRESSINGS_TRIED)];
    const sessions = accessLevels(route.access).includes('public') ? [false, true] : [true];
    for (const addressing of addressings) {
      for (const signedIn of sessions) {
        const answer = await measure(route, addressing, signedIn);
        if (answer.status >= 500) return `${route.method} ${route.path}: ${answer.status} ${answer.text.slice(0, 300)}`;
        if (answer.ok) {
          if (learning) collectKnownValues(answer.body, known);
          return undefined;
        }
      }
    }
    return undefined;
  }

  /**
   * What the writes' answers set as cookies for a visitor (a file request's upload grant, for its
   * upload's own routes), sent with each later request made without a session, as the visitor's
   * browser would.
   */
  const visitorCookies = new Map<string, string>();
  const rememberVisitorCookies = (setCookies: readonly string[]) => {
    for (const setCookie of setCookies) {
      const [pair = ''] = setCookie.split(';');
      visitorCookies.set(pair.slice(0, pair.indexOf('=')), pair);
    }
  };
  const asVisitor = () => (visitorCookies.size > 0 ? { headers: { cookie: [...visitorCookies.values()].join('; ') } } : {});

  /** A current session of each person the writes below act as, signed in again once a write ends it. */
  const writers = new Map<SignedInUser, SignedInUser>();
  async function sessionOf(person: SignedInUser, renew = false): Promise<SignedInUser> {
    const current = writers.get(person);
    if (current && !renew) return current;
    const session = await api.signIn('matrix-writer', { superuser: person.isSuperUser, email: person.email });
    writers.set(person, session);
    return session;
  }

  /**
   * A route that changes something and names an object in its path, on the objects above, one
   * request at a time: each way they address it, as the reader then the owner (a public route:
   * no session, then the reader), with one valid-shaped body made from its schemas (a fixed
   * seed), up to the first success. Routes that name no object (a sign-in, a new transfer) are
   * the fuzz's to measure. Undefined, or what went wrong (a 5xx).
   */
  async function measureWrite(route: RouteDefinition): Promise<string | undefined> {
    if (pathParamNames(route.path).length === 0) return undefined;
    const levels = accessLevels(route.access);
    const people: (SignedInUser | undefined)[] = levels.includes('user')
      ? [user, superuser]
      : levels.includes('public')
        ? [undefined, user]
        : levels.includes('superuser')
          ? [superuser]
          : [];
    const [input] = fc.sample(routeInputArbitrary(route, { known: owned, hostile: false, urls: [`${runtime.url}/`] }), {
      seed: WRITE_BODY_SEED,
      numRuns: 1,
    });
    const body = input?.body === undefined ? {} : { rawBody: JSON.stringify(input.body) };
    for (const addressing of knownAddressings(route, owned, ADDRESSINGS_TRIED)) {
      for (const person of people) {
        const send = async (renew: boolean) =>
          call(route, { ...addressing, ...body, ...(person ? { as: await sessionOf(person, renew) } : asVisitor()) });
        let answer = await send(false);
        if (!person) rememberVisitorCookies(answer.cookies);
        if (answer.status === 401 && person) answer = await send(true);
        if (answer.status >= 500) return `${route.method} ${route.path}: ${answer.status} ${answer.text.slice(0, 300)}`;
        if (answer.ok) {
          // What it made (a visitor's upload, a grade) is there for the routes after it.
          collectKnownValues(answer.body, owned);
          return undefined;
        }
      }
    }
    return undefined;
  }

  const readsOnly = (route: RouteDefinition) => route.capabilities.table !== 'read-write';

  /**
   * Every route of `routesToMeasure`: those that only read SIDE_BY_SIDE at a time, then those
   * that write one at a time, in the table's order, as what one write leaves another may read (a
   * recipient's first download tells the sender, the next does not). What went wrong.
   */
  async function measureGets(routesToMeasure: RouteDefinition[]): Promise<string[]> {
    const failures: string[] = [];
    const queue = routesToMeasure.filter(readsOnly);
    await Promise.all(
      Array.from({ length: SIDE_BY_SIDE }, async () => {
        for (let route = queue.shift(); route; route = queue.shift()) {
          const failure = await measureGet(route);
          if (failure) failures.push(failure);
        }
      }),
    );
    for (const route of routesToMeasure.filter((candidate) => !readsOnly(candidate))) {
      const failure = await measureGet(route);
      if (failure) failures.push(failure);
    }
    return failures;
  }

  it('no route takes more table units a request than docs/route-costs.json records', async () => {
    // Prepare: every successful answer's DynamoDB units are tallied by the runtime, and so are the
    // sign-ins made here.
    runtime.tableUnits.reset();
    const gets = routeEntries.map(([, route]) => route).filter((route) => route.method === 'GET');
    const failures: string[] = [];

    // Act: every GET route, learning the ids its answer shows (a board's publications, a
    // transfer's files), then again every one that none of its addressings answered the first
    // time, with what was learnt.
    learning = true;
    failures.push(...(await measureGets([...gets])));
    learning = false;
    const answered = new Set(runtime.tableUnits.byRoute().keys());
    failures.push(...(await measureGets(gets.filter((route) => !answered.has(routeNameOf(route))))));
    // Then every route that changes an object, one at a time in the table's order, deletions last.
    const writes = routeEntries
      .map(([, route]) => route)
      .filter((route) => route.method !== 'GET')
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const route of writes) {
      const failure = await measureWrite(route);
      if (failure) failures.push(failure);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    const measured = runtime.tableUnits.byRoute();
    expect(measured.size, 'the calls above measured routes').toBeGreaterThan(0);
    const problems = settlePass('matrix', measured);

    // Assess: `npm run docs:costs` records this run instead of checking it.
    expect(problems, problems.join('\n')).toEqual([]);
    // Some 400 requests one after another: 11 to 22 s in full runs, and past the default 30 s in two
    // runs of the integration suites on a slow day (one beside a CPU burner).
  }, 120_000);
});
