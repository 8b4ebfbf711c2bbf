import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { accessLevels, type RouteName, routes } from '../../shared/routes';
import type { RouteUnits, TableUnits } from '../local/table-units';

/**
 * What each route costs in the table, per request: docs/route-costs.json holds the figures the
 * integration suites measured, and is the budget two of them hold every route to: the route
 * matrix (test/integration/route-matrix.test.ts: every GET route as its usual caller, then the
 * routes that change an object, on objects of its own, one request at a time) and the route
 * fuzz (test/integration/route-fuzz.test.ts, whose signed-in callers on their own objects get
 * most other write routes to succeed). Every other integration suite records what its runtime's
 * routes took too (the `suites` pass), which measures the routes neither reaches (a paid
 * invoice, a refund, a gateway's webhook, an upload under way), and each suite holds those
 * routes to it with its requests that ran alone (RouteUnits.maxAlone). `npm run
 * docs:costs` runs them in recording mode, merges what they measured, then writes the tables of
 * docs/operations.md from it;
 * test/unit/route-costs.test.ts fails when that section is not what the file renders. No figure
 * here is written by hand.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ROUTE_COSTS_PATH = path.join(REPO_ROOT, 'docs', 'route-costs.json');
export const OPERATIONS_DOC_PATH = path.join(REPO_ROOT, 'docs', 'operations.md');
/**
 * Set by `npm run docs:costs` to a directory: each suite writes what its pass measured there
 * (`<pass>.json`) instead of checking it, and the script merges the passes.
 */
export const UPDATE_ROUTE_COSTS_VARIABLE = 'UPDATE_ROUTE_COSTS';

/**
 * The suites that measure routes, in the order `npm run docs:costs` runs them: every integration
 * suite first (the matrix and the fuzz among them, which settle their own passes), then the
 * matrix and the fuzz again, each alone, as their passes were always measured.
 */
export const COST_PASSES = {
  suites: 'test/integration',
  matrix: 'test/integration/route-matrix.test.ts',
  fuzz: 'test/integration/route-fuzz.test.ts',
} as const;
export type CostPass = keyof typeof COST_PASSES;

/** Whether a test file is one of the suites the recording runs (COST_PASSES.suites), which alone are held to it. */
export const isRecordedSuite = (testFile: string): boolean =>
  path.relative(REPO_ROOT, testFile).split(path.sep).join('/').startsWith(`${COST_PASSES.suites}/`);

/**
 * On-demand throughput prices, us-east-1, in dollars per million request units, since AWS halved
 * them on 1 November 2024: $0.125 per million read request units, $0.625 per million write
 * request units (https://aws.amazon.com/dynamodb/pricing/on-demand/; the unit rules are in
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
 */
export const ON_DEMAND_PRICE = { region: 'us-east-1', perMillionReadUnits: 0.125, perMillionWriteUnits: 0.625 } as const;

export interface RouteBudget {
  method: string;
  path: string;
  /** Read request units one request took, at most, in the measured run. */
  readUnits: number;
  writeUnits: number;
  /** The passes that got a successful answer from the route, whose most is recorded. */
  measuredBy: CostPass[];
  /**
   * Measured by the other suites only, every request of theirs beside another request in flight (a
   * gateway's webhook racing the route, a parallel call), so the figure depends on the race:
   * recorded, and held by no pass (RouteUnits.maxAlone).
   */
  raced?: true;
}

export interface RouteCosts {
  note: string;
  routes: Record<string, RouteBudget>;
}

const NOTE =
  'Written by `npm run docs:costs` from a run of the integration suites, the route matrix and the route fuzz (test/integration/route-matrix.test.ts, route-fuzz.test.ts) among them: per route, the most DynamoDB request units one successful request took in any. The matrix, the fuzz and the other suites fail when a route they hold takes more (a route marked raced is held by none). Do not edit by hand.';

export function readRouteCosts(file = ROUTE_COSTS_PATH): RouteCosts {
  return JSON.parse(readFileSync(file, 'utf8')) as RouteCosts;
}

/**
 * What one pass measured: per route, the most units one successful request took; for the
 * `suites` pass, also whether one of them ran alone (RouteUnits.maxAlone).
 */
export type PassUnits = Record<string, TableUnits & { alone?: boolean }>;

export const passUnitsOf = (measured: ReadonlyMap<string, RouteUnits>): PassUnits =>
  Object.fromEntries([...measured].map(([name, units]) => [name, units.max]));

const suiteUnitsOf = (measured: ReadonlyMap<string, RouteUnits>): PassUnits =>
  Object.fromEntries([...measured].map(([name, units]) => [name, { ...units.max, alone: units.maxAlone !== undefined }]));

/**
 * The budget file for what the passes of a run measured: per route, the most one request took in
 * the matrix or the fuzz, which hold routes to it; the other suites' figures only for the routes
 * neither reached, so a budget is never loosened by a suite's heavier data. Such a route that no
 * suite ever called alone is marked as raced (RouteBudget.raced).
 */
export function routeCostsOf(passes: Partial<Record<CostPass, PassUnits>>): RouteCosts {
  const merged = new Map<string, RouteBudget>();
  const order: CostPass[] = ['matrix', 'fuzz', 'suites'];
  for (const pass of order) {
    for (const [name, units] of Object.entries(passes[pass] ?? {})) {
      if (pass === 'suites' && merged.has(name)) continue;
      const route = routes[name as RouteName];
      const entry = merged.get(name) ?? { method: route.method, path: route.path, readUnits: 0, writeUnits: 0, measuredBy: [] };
      merged.set(name, {
        ...entry,
        readUnits: Math.max(entry.readUnits, units.read),
        writeUnits: Math.max(entry.writeUnits, units.write),
        measuredBy: [...entry.measuredBy, pass],
        ...(pass === 'suites' && units.alone === false ? { raced: true as const } : {}),
      });
    }
  }
  return { note: NOTE, routes: Object.fromEntries([...merged].sort(([a], [b]) => a.localeCompare(b))) };
}

/** Writes the budget file as prettier formats it (its lists of passes on one line), so a check of the docs passes. */
export async function writeRouteCosts(costs: RouteCosts, file = ROUTE_COSTS_PATH): Promise<void> {
  const config = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(costs, null, 2), { ...config, filepath: file }));
}

const passFile = (directory: string, pass: CostPass) => path.join(directory, `${pass}.json`);
/** One suite's share of the `suites` pass: a file per runtime, named after its table. */
const suiteFile = (directory: string, runtimeName: string) => path.join(directory, `suites-${runtimeName}.json`);

/** A pass's figures; the `suites` pass's are every suite's, the most of each route's, alone if any suite's was. */
export function readPassUnits(directory: string, pass: CostPass): PassUnits {
  if (pass !== 'suites') return JSON.parse(readFileSync(passFile(directory, pass), 'utf8')) as PassUnits;
  const merged: PassUnits = {};
  for (const name of readdirSync(directory).filter((file) => file.startsWith('suites-'))) {
    const suite = JSON.parse(readFileSync(path.join(directory, name), 'utf8')) as PassUnits;
    for (const [route, units] of Object.entries(suite)) {
      const before = merged[route] ?? { read: 0, write: 0, alone: false };
      merged[route] = {
        read: Math.max(before.read, units.read),
        write: Math.max(before.write, units.write),
        alone: before.alone === true || units.alone === true,
      };
    }
  }
  return merged;
}

/**
 * The routes only the other suites measure (a paid invoice, a refund, a gateway's webhook, an
 * upload under way), one of whose requests ran alone in the recording: each suite is held to
 * their budget, the most one request took in any suite, with its own requests that ran alone.
 */
export const suiteHeldRoutes = (costs: RouteCosts): Set<string> =>
  new Set(
    Object.entries(costs.routes)
      .filter(([, budget]) => budget.measuredBy.length === 1 && budget.measuredBy[0] === 'suites' && !budget.raced)
      .map(([name]) => name),
  );

/** A suite's requests took more table units than docs/route-costs.json records (settleSuiteUnits). */
export class RouteCostsExceeded extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Routes took more DynamoDB units a request than docs/route-costs.json records:\n${problems.join('\n')}`);
    this.name = 'RouteCostsExceeded';
  }
}

/**
 * The end of a suite's runtime: in recording mode (`npm run docs:costs`), writes what its routes
 * took for the `suites` pass and finds nothing wrong; otherwise, what is wrong with the routes
 * only the suites measure (suiteHeldRoutes) against docs/route-costs.json. The routes the matrix
 * or the fuzz measure are theirs to hold: a suite's heavier data would take more.
 */
export function settleSuiteUnits(runtimeName: string, measured: ReadonlyMap<string, RouteUnits>): string[] {
  const directory = process.env[UPDATE_ROUTE_COSTS_VARIABLE];
  if (directory) {
    if (measured.size > 0)
      writeFileSync(suiteFile(directory, runtimeName), `${JSON.stringify(suiteUnitsOf(measured), null, 2)}\n`);
    return [];
  }
  return suiteBudgetProblems(measured, readRouteCosts());
}

/**
 * What is wrong with a suite's figures: a request that ran alone to a route only the suites
 * measure took more than recorded. One beside another may have done less (its work done by a
 * webhook first) or more (a contended write retried), whatever the route's code.
 */
export function suiteBudgetProblems(measured: ReadonlyMap<string, RouteUnits>, costs: RouteCosts): string[] {
  const held = suiteHeldRoutes(costs);
  const alone = [...measured].flatMap(([name, units]): [string, RouteUnits][] =>
    held.has(name) && units.maxAlone ? [[name, { ...units, max: units.maxAlone }]] : [],
  );
  return budgetProblems(new Map(alone), costs);
}

/**
 * The end of a measuring pass: in recording mode (`npm run docs:costs`), writes what it measured
 * for the script to merge and finds nothing wrong; otherwise, what is wrong with it against
 * docs/route-costs.json (budgetProblems).
 */
export function settlePass(pass: Exclude<CostPass, 'suites'>, measured: ReadonlyMap<string, RouteUnits>): string[] {
  const directory = process.env[UPDATE_ROUTE_COSTS_VARIABLE];
  if (directory) {
    writeFileSync(passFile(directory, pass), `${JSON.stringify(passUnitsOf(measured), null, 2)}\n`);
    return [];
  }
  return budgetProblems(measured, readRouteCosts(), GUARDED_UNITS[pass]);
}

/**
 * What each pass holds to the budget. The matrix measures each read route's second call, its
 * caches warm, and its writes one at a time in the table's order on objects of its own, so its
 * units are the same from run to run (the same in two recording runs, and none over them in a
 * third with both cores busy with a CPU burner). The fuzz's reads are not: whether
 * a request finds a route's in-memory cache warm (a minute's board or count) depends on the
 * order and timing of the fuzzed calls before it, and one run took 2 read units a request where
 * another took 1.5. Its writes have no such cache, so the fuzz holds them, and the reads of a
 * route only the fuzz reaches are recorded but not held.
 */
const GUARDED_UNITS: Record<Exclude<CostPass, 'suites'>, readonly (keyof TableUnits)[]> = {
  matrix: ['read', 'write'],
  fuzz: ['write'],
};

/** Routes of the route table with no recorded figure: neither pass got a successful answer. */
export const unmeasuredRoutes = (costs: RouteCosts): RouteName[] =>
  (Object.keys(routes) as RouteName[]).filter((name) => !costs.routes[name]).sort((a, b) => a.localeCompare(b));

const HOW_TO_UPDATE =
  'If the change is meant to cost this, run `npm run docs:costs` and commit docs/route-costs.json and docs/operations.md with it, so the new cost is seen in review.';

/**
 * What is wrong with a run against the budget: a route that took more units per request than
 * recorded, or one with no budget at all. A route that got cheaper passes (its budget stays
 * until the next `npm run docs:costs`).
 */
export function budgetProblems(
  measured: ReadonlyMap<string, RouteUnits>,
  budget: RouteCosts,
  guarded: readonly (keyof TableUnits)[] = ['read', 'write'],
): string[] {
  const problems: string[] = [];
  for (const [name, units] of measured) {
    const recorded = budget.routes[name];
    const label = `${name} (${routes[name as RouteName]?.method ?? '?'} ${routes[name as RouteName]?.path ?? '?'})`;
    if (!recorded) {
      problems.push(
        `${label} has no recorded budget: it took ${units.max.read} read and ${units.max.write} write units a request.`,
      );
      continue;
    }
    const over = (kind: keyof TableUnits, recordedUnits: number) =>
      units.max[kind] > recordedUnits
        ? `${units.max[kind]} ${kind} units a request where ${recordedUnits} are recorded`
        : undefined;
    const excess = [
      guarded.includes('read') ? over('read', recorded.readUnits) : undefined,
      guarded.includes('write') ? over('write', recorded.writeUnits) : undefined,
    ].filter(Boolean);
    if (excess.length > 0) problems.push(`${label} took ${excess.join(', and ')}.`);
  }
  return problems.length > 0 ? [...problems, HOW_TO_UPDATE] : [];
}

/** Dollars per million requests of a route at the on-demand prices. */
export const costPerMillion = (units: { readUnits: number; writeUnits: number }): number =>
  units.readUnits * ON_DEMAND_PRICE.perMillionReadUnits + units.writeUnits * ON_DEMAND_PRICE.perMillionWriteUnits;

const START = '<!-- route-costs:start -->';
const END = '<!-- route-costs:end -->';

/**
 * The other lines of a million requests that reach a function, and the fixed monthly cost (the
 * "Fixed" table's total above the generated section, without the ranking job's writes), at the
 * same prices: kept here so the totals follow the measured DynamoDB line.
 */
const OTHER_PER_MILLION = [
  { item: 'CloudFront', arithmetic: 'HTTPS requests $1.00/M + ~5 KB each (5 GB × $0.085)', cost: 1.43 },
  { item: 'HTTP API', arithmetic: '$1.00/M', cost: 1.0 },
  { item: 'Lambda', arithmetic: 'requests $0.20/M + compute 1M × 0.25 GB × 30 ms = 7,500 GB-s × $0.0000133', cost: 0.3 },
  {
    item: 'CloudWatch Logs',
    arithmetic: "~1.1 KB a request (the access log line, the Answered line, Lambda's REPORT line) = 1.1 GB × $0.50",
    cost: 0.55,
  },
] as const;
export const FIXED_PER_MONTH = 54;
const DAILY_TIERS = [1_000, 100_000, 10_000_000];

const dollars = (value: number, digits = 2) =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
const units = (value: number) => String(Number(value.toFixed(2)));
const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** The generated part of docs/operations.md "Cost drivers", markers included. */
export function renderCostSection(costs: RouteCosts): string {
  const rows = Object.entries(costs.routes)
    .map(([name, budget]) => ({ name, ...budget, cost: costPerMillion(budget) }))
    .sort((a, b) => b.cost - a.cost || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const count = rows.length;
  const unmeasured = unmeasuredRoutes(costs);
  // The cost model's request: the mean over the routes people call (public or user), since
  // superuser and app routes (a moderation queue, reconciliation reports) are a sliver of traffic.
  const everyday = rows.filter((row) => {
    const levels = accessLevels(routes[row.name as RouteName].access);
    return levels.includes('public') || levels.includes('user');
  });
  const meanRead = everyday.reduce((sum, row) => sum + row.readUnits, 0) / Math.max(everyday.length, 1);
  const meanWrite = everyday.reduce((sum, row) => sum + row.writeUnits, 0) / Math.max(everyday.length, 1);
  const dynamoPerMillion = costPerMillion({ readUnits: meanRead, writeUnits: meanWrite });
  const perMillion = round(OTHER_PER_MILLION.reduce((sum, line) => sum + line.cost, 0) + dynamoPerMillion, 2);
  const lines = [
    START,
    '<!-- Generated by `npm run docs:costs` from docs/route-costs.json: do not edit by hand. -->',
    '',
    '**What each route costs in the table**, measured by the integration suites. Two of them measure',
    'for the budget: the route matrix calls every GET',
    'route as its usual caller (no session for a public route, a current session otherwise; a read-only',
    'route twice, measured on the second call, as a warm instance with its caches answers most',
    'requests), on objects of its own where the route needs one (ranked and archived publications, a',
    'story with comments, a sent and a draft transfer, two file requests, a shop with a product, a grade',
    "and a reader's cart), then every route that changes such an object, one request at a time in a fixed order,",
    "and signs people in; the route fuzz sends requests made from every route's schemas,",
    'among them signed-in callers on their own objects (a shop, products, a transfer, a story), so most',
    'write routes succeed there. The local runtime adds up the DynamoDB `ConsumedCapacity` of every',
    'command each successful request sends, as AWS bills it (infra/local/table-units.ts says where',
    'DynamoDB Local differs and how that is corrected). Units are the most one successful request took',
    'in either suite ("by" names the suites that measured the route). A route neither gets an answer',
    "from (one that needs a paid invoice, an upload under way or a gateway's webhook) is measured by the",
    'other suites, each on its own objects ("suites": the most one request took in any of them), and',
    'each suite holds it with its requests that ran alone, no other request in flight; one beside',
    "another (a gateway's webhook racing the route, a parallel call) may find its work done or retry,",
    'and a route no suite called alone is recorded, not held ("raced"). The cost is at',
    `${ON_DEMAND_PRICE.region} on-demand prices, ${dollars(ON_DEMAND_PRICE.perMillionReadUnits, 3)} per million read and ${dollars(ON_DEMAND_PRICE.perMillionWriteUnits, 3)} per million write request units.`,
    'The suites run on an almost empty table, so a list costs what its first page costs with little in',
    'it: the figures count commands and item sizes, not page sizes. A route that takes more units than',
    'docs/route-costs.json records fails the matrix, the fuzz or the suite that measured it.',
    '',
    `${unmeasured.length === 0 ? `All ${count}` : `${count} of the ${count + unmeasured.length}`} routes measured. The mean over the ${everyday.length} of them that people call (public or user`,
    'routes; superuser and app routes are left out as a sliver of traffic):',
    `${units(meanRead)} read and ${units(meanWrite)} write units a request, ${dollars(dynamoPerMillion)} per million requests.`,
    '',
    '| route | read units | write units | per million requests | by |',
    '| ----- | ---------- | ----------- | -------------------- | -- |',
    ...rows.map(
      (row) =>
        `| \`${row.method} ${row.path}\` (${row.name}) | ${units(row.readUnits)} | ${units(row.writeUnits)} | ${dollars(row.cost, 3)} | ${row.measuredBy.join(', ')}${row.raced ? ' (raced)' : ''} |`,
    ),
    '',
    ...(unmeasured.length === 0
      ? []
      : [
          `**Not measured** (${unmeasured.length} routes): no suite got a successful answer from them (a`,
          'GET of something the suites never create, a write whose input is always refused), so they',
          'have no figure and no guard yet:',
          '',
          ...unmeasured.map((name) => `- \`${routes[name].method} ${routes[name].path}\` (${name})`),
          '',
        ]),
    "**Per million API requests that reach a function** (not answered from CloudFront's cache):",
    '',
    '| item | arithmetic | cost |',
    '| ---- | ---------- | ---- |',
    ...OTHER_PER_MILLION.slice(0, 3).map((line) => `| ${line.item} | ${line.arithmetic} | ${dollars(line.cost)} |`),
    `| DynamoDB | the measured mean above: ${units(meanRead)} RRU × $0.125/M + ${units(meanWrite)} WRU × $0.625/M | ${dollars(dynamoPerMillion)} |`,
    ...OTHER_PER_MILLION.slice(3).map((line) => `| ${line.item} | ${line.arithmetic} | ${dollars(line.cost)} |`),
    `| **Total** | | **≈ ${dollars(perMillion)}** |`,
    '',
    "A request answered from CloudFront's cache (boards, for their `cacheSeconds`) costs only the",
    'CloudFront line, ≈ $1.43 per million.',
    '',
    `**By daily traffic**, all requests assumed to reach a function (an upper bound), with the fixed ≈ ${dollars(FIXED_PER_MONTH, 0)}:`,
    '',
    '| requests a day | per month | variable | with fixed | total a month |',
    '| -------------- | --------- | -------- | ---------- | ------------- |',
    ...DAILY_TIERS.map((daily) => {
      const monthlyMillions = (daily * 30) / 1_000_000;
      const variable = monthlyMillions * perMillion;
      return `| ${daily.toLocaleString('en-US')} | ${(daily * 30).toLocaleString('en-US')} | ${monthlyMillions} × ${dollars(perMillion)} = ${dollars(variable)} | ${dollars(FIXED_PER_MONTH, 0)} | ≈ **${dollars(Math.round(variable + FIXED_PER_MONTH), 0)}** plus job writes |`;
    }),
    END,
  ];
  return lines.join('\n');
}

/**
 * The generated section, formatted as prettier formats docs/operations.md (on its own: its tables
 * and paragraphs format the same wherever they stand, and the whole file takes seconds).
 */
export async function formattedCostSection(costs: RouteCosts): Promise<string> {
  const config = (await prettier.resolveConfig(OPERATIONS_DOC_PATH)) ?? {};
  return (await prettier.format(renderCostSection(costs), { ...config, filepath: OPERATIONS_DOC_PATH })).trimEnd();
}

/** docs/operations.md with its section rendered from `costs`. */
export async function renderOperationsDoc(document: string, costs: RouteCosts): Promise<string> {
  return withCostSection(document, await formattedCostSection(costs));
}

/** docs/operations.md with its generated section replaced by `section`. */
export function withCostSection(document: string, section: string): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md has no ${START} … ${END} section`);
  return `${document.slice(0, start)}${section}${document.slice(end + END.length)}`;
}

/** The generated section as it stands in a document. */
export function costSectionOf(document: string): string | undefined {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  return start < 0 || end < start ? undefined : document.slice(start, end + END.length);
}
