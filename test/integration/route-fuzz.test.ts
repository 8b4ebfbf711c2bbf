import * as fc from 'fast-check';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLevels, type RouteDefinition, routeEntries, routes } from '../../shared/routes';
import {
  type Answer,
  type ApiClient,
  type AppCredentials,
  type Caller,
  createApiClient,
  describeRoute,
  expectOk,
  type SignedInUser,
} from '../support/api-client';
import { knownAddressings, routeInputArbitrary, type RouteInput, collectKnownValues } from '../support/fuzz/route-inputs';
import type { ArbitraryOptions } from '../support/fuzz/schema-arbitrary';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { settlePass } from '../../infra/build/route-costs';
import { addGrade, addProduct, openShop } from '../support/penpay';
import { storyInTable } from '../support/stories';
import { patternedBytes, sentTransfer } from '../support/transfers';

/**
 * A fuzzer over the route table: every route (present and future, no list to keep) gets requests
 * made from its own zod schemas, valid-shaped and spoiled, from an anonymous caller, a second
 * user aiming at the first user's objects, and signed-in callers on their own objects. Every
 * answer must be below 500 and match the route's response schema or the error shape (the API
 * client checks both); nothing sent by someone else may reveal the owner's private data or
 * change what the owner sees.
 *
 * `npm test` runs a few cases per route with a fixed seed, so a failure reproduces; a longer
 * search: `FUZZ_RUNS=200 npx vitest run test/integration/route-fuzz.test.ts` (and `FUZZ_SEED`
 * for another sequence). The figures are printed at the end.
 */

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_261_206);
/** docs/route-costs.json records what the default sequence costs; a longer search may find dearer inputs. */
const DEFAULT_SEQUENCE = process.env.FUZZ_RUNS === undefined && process.env.FUZZ_SEED === undefined;
/** Spread per route, so a route added to the table does not change any other route's cases. */
const seedFor = (route: RouteDefinition) =>
  (FUZZ_SEED ^ createHash('sha256').update(describeRoute(route)).digest().readInt32BE(0)) | 0;

/** Marks the owner's private data: none of it may reach anyone else. */
const SECRET = `fz${Date.now().toString(36)}secret`;

let runtime: TestRuntime;
let api: ApiClient;
let owner: SignedInUser;
let superuser: SignedInUser;
let app: AppCredentials;
let ownerSecrets: string[];
/** Ids and names of the owner's objects, by the field that names them. */
const known = new Map<string, string[]>();
/** What the owner saw of their own objects before anyone else sent anything. */
let ownerViewBefore: Map<string, unknown>;
/** The UTC day the view before was taken on: a run that crosses midnight sees the days' windows move on. */
let dayBefore: string;
const figures = { requests: 0, byStatus: new Map<number, number>(), startedAt: 0 };

const allRoutes = routeEntries.map(([, route]) => [describeRoute(route), route] as const);

function generationOptions(hostile: boolean): ArbitraryOptions {
  return {
    known,
    hostile,
    // Pages this machine serves and addresses nothing listens on: a generated link never leaves it.
    urls: [
      `${runtime.url}/`,
      `${runtime.url}/api/health`,
      `${runtime.url}/no-such-page`,
      'http://127.0.0.1:9/closed',
      'javascript:alert(1)',
      'ftp://127.0.0.1/x',
    ],
  };
}

async function send(route: RouteDefinition, input: RouteInput, as: Caller | undefined): Promise<Answer<RouteDefinition>> {
  figures.requests += 1;
  // The API client fails the test on a 2xx that does not match the response schema, and on an
  // error answer that is not the error shape.
  const answer = await api.call(route, {
    params: input.params as never,
    query: input.query as never,
    ...(input.body === undefined ? {} : { rawBody: JSON.stringify(input.body) }),
    ...(as ? { as } : {}),
  });
  figures.byStatus.set(answer.status, (figures.byStatus.get(answer.status) ?? 0) + 1);
  expect(answer.status, `${describeRoute(route)} answered ${answer.status}: ${answer.text.slice(0, 500)}`).toBeLessThan(500);
  return answer;
}

function expectNothingOfTheOwner(route: RouteDefinition, answer: Answer<RouteDefinition>): void {
  const text = `${answer.text}\n${answer.location ?? ''}\n${answer.cookies.join('\n')}`.toLowerCase();
  for (const secret of ownerSecrets) {
    expect(
      text.includes(secret.toLowerCase()),
      `${describeRoute(route)} showed the owner's "${secret}": ${answer.text.slice(0, 500)}`,
    ).toBe(false);
  }
}

/**
 * Other people may legitimately touch the owner: notify them (a follow, a like) and follow them.
 * Those counts are left out of the comparison, and nothing else.
 */
const OTHERS_MAY_CHANGE = /notification|followerCount/i;

/** `json` with every value that differs from `other` (a token issued per request, a time) replaced by a mark. */
function withVaryingValuesMarked(json: unknown, other: unknown): unknown {
  if (json !== null && other !== null && typeof json === 'object' && typeof other === 'object') {
    if (Array.isArray(json) !== Array.isArray(other)) return '(varies)';
    if (Array.isArray(json)) return json.map((item, index) => withVaryingValuesMarked(item, (other as unknown[])[index]));
    return Object.fromEntries(
      Object.entries(json)
        .filter(([key]) => !OTHERS_MAY_CHANGE.test(key))
        .map(([key, value]) => [key, withVaryingValuesMarked(value, (other as Record<string, unknown>)[key])]),
    );
  }
  return json === other ? json : '(varies)';
}

/** Everything the owner's own GET routes show them, by request, to compare before and after. */
async function ownerView(): Promise<Map<string, unknown>> {
  const view = new Map<string, unknown>();
  for (const [name, route] of allRoutes) {
    if (route.method !== 'GET' || !accessLevels(route.access).includes('user') || route.path.includes('/notifications')) continue;
    for (const addressing of knownAddressings(route, known)) {
      const answer = await api.call(route, { ...addressing, as: owner } as never);
      if (answer.status !== 200) continue;
      collectKnownValues(answer.body, known);
      view.set(`${name} ${JSON.stringify(addressing)}`, answer.body);
    }
  }
  return view;
}

/** `json` with every calendar date (a dashboard's days, which end today) replaced by a mark. */
function withCalendarDatesMarked(json: unknown): unknown {
  if (typeof json === 'string') return /^\d{4}-\d\d-\d\d$/.test(json) ? '(a date)' : json;
  if (Array.isArray(json)) return json.map(withCalendarDatesMarked);
  if (json !== null && typeof json === 'object')
    return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, withCalendarDatesMarked(value)]));
  return json;
}

const utcDay = () => new Date().toISOString().slice(0, 10);

/**
 * The owner's view with what changes on its own marked: two views taken one after the other,
 * with nobody else acting, differ only in what each request issues afresh (tokens, times).
 */
async function stableOwnerView(): Promise<Map<string, unknown>> {
  const [first, second] = [await ownerView(), await ownerView()];
  return new Map([...first].map(([request, json]) => [request, withVaryingValuesMarked(json, second.get(request))]));
}

/** Someone the route lets in on their own behalf: the owner where users may call, else a superuser or an app. */
function ownCaller(route: RouteDefinition): Caller | undefined {
  const levels = accessLevels(route.access);
  if (levels.includes('public')) return owner;
  if (levels.includes('user')) return owner;
  if (levels.includes('superuser')) return superuser;
  return app;
}

beforeAll(async () => {
  runtime = await startTestRuntime({ rank: true, edgeCache: false });
  api = createApiClient(runtime, {
    onAnswer: (answer) => {
      if (answer.as === owner && answer.status < 300) {
        try {
          collectKnownValues(JSON.parse(answer.text), known);
        } catch {
          // Not JSON (a sitemap): nothing to learn from it.
        }
      }
    },
  });
  // One after another: until the owner is signed in, every answer with no session counts as
  // theirs, so the sign-ins teach the admin's id and then the owner's, always in that order. Side
  // by side, the order followed whichever answered first, and with it whom the owner's follow
  // later aimed at (the admin, or their own deleted account) and what deleting the account took:
  // the recorded units of followUser and deleteAccount moved between runs.
  superuser = await api.signIn('fuzz-admin', { superuser: true });
  app = await api.registerApp('fuzz-app');
  owner = await api.signIn('fuzz-owner');
  const recipient = `fuzz-recipient-${SECRET}@example.com`;
  ownerSecrets = [owner.email, SECRET];

  // The owner's objects across the apps: a sent transfer and a draft, a shop, a cart in
  // someone else's shop, a story, settings.
  const suite = { runtime, api };
  await sentTransfer(api, owner, {
    title: `Plans ${SECRET}`,
    files: [{ name: `${SECRET}.txt`, bytes: patternedBytes(2_000), type: 'text/plain' }],
    recipients: [recipient],
  });
  const draft = await api.call(routes.createTransfer, { body: { title: `Draft ${SECRET}` }, as: owner });
  expectOk(draft, 201);
  expectOk(
    await api.call(routes.createBRecord, {
      body: { transferId: draft.body.id, name: `pending-${SECRET}.pdf`, size: 10_000, type: 'application/pdf' },
      as: owner,
    }),
    201,
  );
  const registered = await api.call(routes.registerMerchant, {
    body: { shopName: 'Fuzz owner shop', handle: `fuzz-owner-${Date.now().toString(36)}`, currency: 'USD', description: 'Owned' },
    as: owner,
  });
  expectOk(registered);
  const connected = await api.call(routes.connectMerchantGateway, { body: { environment: 'local' }, as: owner });
  expectOk(connected);
  const ownerShop = { owner, merchant: connected.body };
  await addGrade(
    suite,
    ownerShop,
    await addProduct(suite, ownerShop, `Private ${SECRET}`, { visibility: 'private' }),
    'Only',
    900,
    {
      plan: 'monthly',
    },
  );
  const shop = await openShop(suite, 'fuzz-shop');
  const product = await addProduct(suite, shop, 'Fuzzed poster');
  const grade = await addGrade(suite, shop, product, 'A2', 1_500);
  expectOk(await api.call(routes.addCartItem, { body: { productStockGradeId: grade.id, quantity: 1 }, as: owner }));
  known.set('merchantAccountId', [shop.merchant.id]);
  await storyInTable(owner, 'A story anyone may read');
  const stock = await api.call(routes.getProProductStock, {});
  expectOk(stock);
  collectKnownValues(stock.body, known);
  dayBefore = utcDay();
  ownerViewBefore = await stableOwnerView();
  figures.startedAt = performance.now();
});

afterAll(async () => {
  const seconds = (performance.now() - figures.startedAt) / 1000;
  const statuses = [...figures.byStatus].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  process.stdout.write(
    `route fuzz: ${figures.requests} requests over ${allRoutes.length} routes in ${seconds.toFixed(1)} s ` +
      `(FUZZ_RUNS=${FUZZ_RUNS}, FUZZ_SEED=${FUZZ_SEED}): ${statuses.join(' ')}\n`,
  );
  await runtime?.close();
});

describe('anonymous callers and a second user', () => {
  it.each(allRoutes)('%s', async (_name, route) => {
    // Prepare: a second user of their own for each route, as a route may end their session.
    const intruder = await api.signIn('fuzz-intruder');

    // Act and Assess: aimed at each of the owner's objects the route can address, with a valid-shaped body...
    const [validBody] = fc.sample(routeInputArbitrary(route, generationOptions(false)), { seed: seedFor(route), numRuns: 1 });
    for (const addressing of knownAddressings(route, known)) {
      for (const as of [undefined, intruder]) {
        expectNothingOfTheOwner(route, await send(route, { ...addressing, body: validBody?.body }, as));
      }
    }
    // ...then whatever the schemas make, valid-shaped or spoiled.
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.boolean().chain((hostile) => routeInputArbitrary(route, generationOptions(hostile))),
        async (anonymous, input) => {
          expectNothingOfTheOwner(route, await send(route, input, anonymous ? undefined : intruder));
        },
      ),
      { seed: seedFor(route), numRuns: FUZZ_RUNS },
    );
  });

  it('leaves everything the owner sees of their own objects as it was', async () => {
    // Act
    const after = await ownerView();
    const datesMoved = utcDay() !== dayBefore;
    const comparable = (json: unknown) => (datesMoved ? withCalendarDatesMarked(json) : json);

    // Assess
    expect(ownerViewBefore.size, 'the owner sees some of their objects').toBeGreaterThan(10);
    for (const [request, before] of ownerViewBefore) {
      expect
        .soft(withVaryingValuesMarked(comparable(after.get(request)), comparable(before)), request)
        .toEqual(comparable(before));
    }
  });
});

describe('signed-in callers on their own objects', () => {
  it.each(allRoutes)('%s', async (_name, route) => {
    // Prepare: the owner again if a route before this one ended their session.
    const as = ownCaller(route);
    if (as === owner && (await api.call(routes.getMe, { as: owner })).status === 401) {
      owner = { ...owner, ...(await api.signIn('fuzz-owner', { email: owner.email })) };
    }

    // Act and Assess
    await fc.assert(
      fc.asyncProperty(
        fc.boolean().chain((hostile) => routeInputArbitrary(route, generationOptions(hostile))),
        async (input) => {
          await send(route, input, ownCaller(route));
        },
      ),
      { seed: seedFor(route), numRuns: FUZZ_RUNS },
    );
  });
});

describe('table units per request', () => {
  it.skipIf(!DEFAULT_SEQUENCE)('no route takes more table units a request than docs/route-costs.json records', () => {
    // Prepare: the runtime tallied the units of every successful answer above (the owner's
    // objects made before the fuzzing, the views of them, the fuzzed requests): no request of
    // its own here, so the measure costs the suite nothing.
    const measured = runtime.tableUnits.byRoute();
    expect(measured.size, 'the requests above measured routes').toBeGreaterThan(0);

    // Act: `npm run docs:costs` records this run instead of checking it.
    const problems = settlePass('fuzz', measured);

    // Assess
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
