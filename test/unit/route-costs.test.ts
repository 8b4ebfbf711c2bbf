import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  budgetProblems,
  costSectionOf,
  isRecordedSuite,
  OPERATIONS_DOC_PATH,
  readRouteCosts,
  readPassUnits,
  settleSuiteUnits,
  suiteBudgetProblems,
  renderCostSection,
  renderOperationsDoc,
  type RouteCosts,
  routeCostsOf,
  UPDATE_ROUTE_COSTS_VARIABLE,
} from '../../infra/build/route-costs';
import { billedUnits, meterTableUnits, type RouteUnits, RouteUnitsLog } from '../../infra/local/table-units';
import { runAsFunction } from '../../functions/lib/function-environment';
import { capabilitiesOf } from '../../shared/capabilities';
import { routeEntries } from '../../shared/routes';
import { REPO_ROOT } from '../../infra/local/repo-root';

const TABLE = 'route-costs-unit';
const scope = { name: 'getMe', capabilities: capabilitiesOf({}, { table: 'read' }), env: {} };

/**
 * A document client that never reaches a network: each command answers the next canned output,
 * and the inputs it was sent are kept, as the metering middleware sees them in the runtime.
 */
function cannedClient(outputs: object[]) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'unit', secretAccessKey: 'unit' } }),
  );
  const sent: Record<string, unknown>[] = [];
  client.middlewareStack.add(
    () => async (args) => {
      sent.push((args as { input: Record<string, unknown> }).input);
      const output = outputs.shift();
      if (!output) throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
      return { output: { $metadata: {}, ...output }, response: {} };
    },
    { step: 'build', name: 'cannedAnswers' },
  );
  meterTableUnits(client);
  return { client, sent };
}

/** One request to each route, alone unless said. */
const measured = (entries: Record<string, { read: number; write: number }>, options = { alone: true }): Map<string, RouteUnits> =>
  new Map(
    Object.entries(entries).map(([name, max]) => [
      name,
      { requests: 1, max, ...(options.alone ? { maxAlone: max } : {}), total: max },
    ]),
  );

describe('table units as AWS bills them', () => {
  it('sums the per-table entries that transactions and batches answer with', () => {
    // Act
    const transaction = billedUnits(
      'TransactWriteItemsCommand',
      { TransactItems: [{}, {}] },
      {
        consumed: [{ CapacityUnits: 4 }, { CapacityUnits: 2 }],
      },
    );
    const batch = billedUnits('BatchGetItemCommand', {}, { consumed: [{ CapacityUnits: 1.5 }, { CapacityUnits: 0.5 }] });

    // Assess
    expect(transaction).toEqual({ read: 0, write: 6 });
    expect(batch).toEqual({ read: 2, write: 0 });
  });

  it("adds what DynamoDB Local leaves out: a transaction's condition check, an empty query, a refused write", () => {
    // Act
    const withCheck = billedUnits(
      'TransactWriteItemsCommand',
      { TransactItems: [{}, { ConditionCheck: {} }] },
      {
        consumed: [{ CapacityUnits: 2 }],
      },
    );
    const emptyQuery = billedUnits('QueryCommand', {}, { consumed: { CapacityUnits: 0 } });
    const emptyStrongQuery = billedUnits('QueryCommand', { ConsistentRead: true }, { consumed: { CapacityUnits: 0 } });
    const refusedPut = billedUnits('PutItemCommand', {}, { failedCondition: true });

    // Assess
    expect(withCheck).toEqual({ read: 0, write: 4 });
    expect(emptyQuery).toEqual({ read: 0.5, write: 0 });
    expect(emptyStrongQuery).toEqual({ read: 1, write: 0 });
    expect(refusedPut).toEqual({ read: 0, write: 1 });
  });
});

describe('the per-invocation tally', () => {
  it("adds up every command of a successful invocation, under its route, and only that invocation's", async () => {
    // Prepare: a get, a query, a transaction answering a list, and a refused conditional put.
    const { client, sent } = cannedClient([
      { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 0.5 } },
      { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 1 }, Items: [] },
      { ConsumedCapacity: [{ TableName: TABLE, CapacityUnits: 4 }] },
    ]);
    const log = new RouteUnitsLog();
    const handler = async () => {
      await client.send(new GetCommand({ TableName: TABLE, Key: { pk: 'a', sk: 'b' } }));
      await client.send(
        new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' } }),
      );
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { pk: 'a', sk: 'c' } } },
            { Put: { TableName: TABLE, Item: { pk: 'a', sk: 'd' } } },
          ],
        }),
      );
      await client
        .send(new PutCommand({ TableName: TABLE, Item: { pk: 'a', sk: 'b' }, ConditionExpression: 'attribute_not_exists(pk)' }))
        .catch(() => undefined);
      return { statusCode: 200 };
    };

    // Act
    await log.meter('getMe', scope, (callScope) => runAsFunction(callScope, handler));
    await log.meter('getMe', scope, (callScope) => runAsFunction(callScope, async () => ({ statusCode: 404 })));

    // Assess: 0.5 + 1 read; 4 + 1 (the refused put) write; the 404 is not counted.
    expect(log.byRoute().get('getMe')).toEqual({
      requests: 1,
      max: { read: 1.5, write: 5 },
      maxAlone: { read: 1.5, write: 5 },
      total: { read: 1.5, write: 5 },
    });
    expect(sent.every((input) => input.ReturnConsumedCapacity === 'TOTAL')).toBe(true);
  });

  it('tells a request that ran alone from requests that ran beside another, the later one included', async () => {
    // Prepare: a webhook arrives while the route's call is in flight; then the route is called alone
    const { client } = cannedClient([
      { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 3 } },
      { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 1 } },
      { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 2 } },
    ]);
    const log = new RouteUnitsLog();
    let webhookArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (webhookArrived = resolve));
    const put = () => client.send(new PutCommand({ TableName: TABLE, Item: { pk: 'a', sk: 'b' } }));

    // Act
    const route = log.meter('updateSubscriptionPaymentMethod', scope, (callScope) =>
      runAsFunction(callScope, async () => {
        await put();
        await arrived;
        return { statusCode: 200 };
      }),
    );
    await log.meter('receiveBraintreeWebhook', scope, (callScope) =>
      runAsFunction(callScope, async () => {
        await put();
        webhookArrived();
        return { statusCode: 200 };
      }),
    );
    await route;
    await log.meter('updateSubscriptionPaymentMethod', scope, (callScope) =>
      runAsFunction(callScope, async () => {
        await put();
        return { statusCode: 200 };
      }),
    );

    // Assess
    expect(log.byRoute().get('receiveBraintreeWebhook')).toEqual({
      requests: 1,
      max: { read: 0, write: 1 },
      total: { read: 0, write: 1 },
    });
    expect(log.byRoute().get('updateSubscriptionPaymentMethod')).toEqual({
      requests: 2,
      max: { read: 0, write: 3 },
      maxAlone: { read: 0, write: 2 },
      total: { read: 0, write: 5 },
    });
  });

  it('leaves commands outside an invocation as they were sent', async () => {
    // Prepare
    const { client, sent } = cannedClient([{}]);

    // Act
    await client.send(new GetCommand({ TableName: TABLE, Key: { pk: 'a', sk: 'b' } }));

    // Assess
    expect(sent[0]?.ReturnConsumedCapacity).toBeUndefined();
  });
});

describe('the route budget', () => {
  const budget: RouteCosts = {
    note: '',
    routes: { getMe: { method: 'GET', path: '/api/i/user/me/v', readUnits: 2, writeUnits: 0, measuredBy: ['matrix'] } },
  };

  it('passes a route within its budget, or cheaper', () => {
    // Act
    const problems = budgetProblems(measured({ getMe: { read: 1.5, write: 0 } }), budget);

    // Assess
    expect(problems).toEqual([]);
  });

  it('names a route that takes more units a request than recorded, and how to record it deliberately', () => {
    // Act
    const problems = budgetProblems(measured({ getMe: { read: 2.5, write: 1 } }), budget);

    // Assess
    expect(problems[0]).toBe(
      'getMe (GET /api/i/user/me/v) took 2.5 read units a request where 2 are recorded, and 1 write units a request where 0 are recorded.',
    );
    expect(problems.at(-1)).toContain('npm run docs:costs');
  });

  it('holds only the units a pass guards: extra reads pass where writes alone are held, extra writes do not', () => {
    // Act
    const moreReads = budgetProblems(measured({ getMe: { read: 2.5, write: 0 } }), budget, ['write']);
    const moreWrites = budgetProblems(measured({ getMe: { read: 2.5, write: 1 } }), budget, ['write']);

    // Assess
    expect(moreReads).toEqual([]);
    expect(moreWrites[0]).toBe('getMe (GET /api/i/user/me/v) took 1 write units a request where 0 are recorded.');
  });

  it('names a measured route with no budget', () => {
    // Act
    const problems = budgetProblems(measured({ getSettings: { read: 2, write: 0 } }), budget);

    // Assess
    expect(problems[0]).toBe(
      'getSettings (GET /api/i/user/me/v/settings) has no recorded budget: it took 2 read and 0 write units a request.',
    );
  });
});

describe('a run of both passes', () => {
  it('records per route the most one request took in either pass, and which passes measured it', () => {
    // Act
    const costs = routeCostsOf({
      matrix: { getMe: { read: 2, write: 0 } },
      fuzz: { getMe: { read: 1.5, write: 1 }, getSettings: { read: 1, write: 0 } },
    });

    // Assess
    expect(costs.routes.getMe).toMatchObject({ readUnits: 2, writeUnits: 1, measuredBy: ['matrix', 'fuzz'] });
    expect(costs.routes.getSettings).toMatchObject({ readUnits: 1, writeUnits: 0, measuredBy: ['fuzz'] });
  });

  it("takes the other suites' figures only for routes neither the matrix nor the fuzz measured", () => {
    // Act: a suite's heavier getMe must not loosen the matrix's budget
    const costs = routeCostsOf({
      suites: { getMe: { read: 9, write: 3 }, getPublication: { read: 1.5, write: 0 } },
      matrix: { getMe: { read: 2, write: 0 } },
    });

    // Assess
    expect(costs.routes.getMe).toMatchObject({ readUnits: 2, writeUnits: 0, measuredBy: ['matrix'] });
    expect(costs.routes.getPublication).toMatchObject({ readUnits: 1.5, writeUnits: 0, measuredBy: ['suites'] });
  });

  it("merges every suite's file of a recording run, the most of each route", () => {
    // Prepare: two suites' runtimes, as their close() writes them in recording mode
    const directory = mkdtempSync(join(tmpdir(), 'route-costs-unit-'));
    const previous = process.env[UPDATE_ROUTE_COSTS_VARIABLE];
    process.env[UPDATE_ROUTE_COSTS_VARIABLE] = directory;
    try {
      settleSuiteUnits('it-one', measured({ getStory: { read: 1, write: 0 }, likeStory: { read: 2, write: 4 } }));
      settleSuiteUnits('it-two', measured({ getStory: { read: 1.5, write: 0 } }));
      settleSuiteUnits('it-idle', measured({}));

      // Act
      const suites = readPassUnits(directory, 'suites');

      // Assess
      expect(suites).toEqual({ getStory: { read: 1.5, write: 0, alone: true }, likeStory: { read: 2, write: 4, alone: true } });
      expect(readdirSync(directory).sort()).toEqual(['suites-it-one.json', 'suites-it-two.json']);
    } finally {
      if (previous === undefined) delete process.env[UPDATE_ROUTE_COSTS_VARIABLE];
      else process.env[UPDATE_ROUTE_COSTS_VARIABLE] = previous;
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('holds a suite to the budget of the routes only the suites measure, and leaves the rest to the matrix and the fuzz', () => {
    // Prepare: likeStory measured by the suites alone, getMe by the matrix (a suite's data may be heavier)
    const costs = routeCostsOf({
      suites: { likeStory: { read: 2, write: 4 }, getMe: { read: 9, write: 0 } },
      matrix: { getMe: { read: 2, write: 0 } },
    });

    // Act
    const heavier = suiteBudgetProblems(measured({ likeStory: { read: 2, write: 5 }, getMe: { read: 9, write: 0 } }), costs);
    const within = suiteBudgetProblems(measured({ likeStory: { read: 1, write: 4 }, getMe: { read: 9, write: 0 } }), costs);

    // Assess
    expect(heavier[0]).toBe(
      'likeStory (PUT /api/i/stories/story/{id}/like/{status}) took 5 write units a request where 4 are recorded.',
    );
    expect(heavier).toHaveLength(2);
    expect(within).toEqual([]);
  });

  it('marks a route no suite called alone as raced, and holds it nowhere', () => {
    // Prepare: every request to it had a gateway's webhook beside it; likeStory was once called alone
    const costs = routeCostsOf({
      suites: {
        updateSubscriptionPaymentMethod: { read: 7.5, write: 30, alone: false },
        likeStory: { read: 2, write: 4, alone: true },
      },
    });

    // Act
    const problems = suiteBudgetProblems(measured({ updateSubscriptionPaymentMethod: { read: 8.5, write: 38 } }), costs);

    // Assess
    expect(costs.routes.updateSubscriptionPaymentMethod).toMatchObject({ readUnits: 7.5, writeUnits: 30, raced: true });
    expect(costs.routes.likeStory).not.toHaveProperty('raced');
    expect(problems).toEqual([]);
    expect(renderCostSection(costs)).toContain('| suites (raced) |');
  });

  it("holds a suite's requests that ran alone, not those beside another request", () => {
    // Prepare
    const costs = routeCostsOf({ suites: { likeStory: { read: 2, write: 4, alone: true } } });

    // Act: the same dearer like, once raced, once alone
    const raced = suiteBudgetProblems(measured({ likeStory: { read: 3, write: 6 } }, { alone: false }), costs);
    const alone = suiteBudgetProblems(measured({ likeStory: { read: 3, write: 6 } }), costs);

    // Assess
    expect(raced).toEqual([]);
    expect(alone[0]).toBe(
      'likeStory (PUT /api/i/stories/story/{id}/like/{status}) took 3 read units a request where 2 are recorded, and 6 write units a request where 4 are recorded.',
    );
  });

  it('holds the integration suites the recording runs, and not the browser suites, whose data it never saw', () => {
    // Act
    const held = [
      'test/integration/subscriptions-api.test.ts',
      'test/e2e/subscriptions.test.ts',
      'test/integration-helpers/other.test.ts',
    ].map((file) => isRecordedSuite(join(REPO_ROOT, file)));

    // Assess
    expect(held).toEqual([true, false, false]);
  });

  it('lists in the doc, with their count, the routes neither pass measured', () => {
    // Act
    const section = renderCostSection(routeCostsOf({ matrix: { getMe: { read: 2, write: 0 } } }));

    // Assess
    expect(section).toContain(`**Not measured** (${routeEntries.length - 1} routes)`);
    expect(section).toContain('(getSettings)');
    expect(section).not.toContain('- `GET /api/i/user/me/v` (getMe)');
  });

  it('says every route is measured when none is left out, with no empty list', () => {
    // Act
    const every = Object.fromEntries(routeEntries.map(([name]) => [name, { read: 1, write: 1 }]));
    const section = renderCostSection(routeCostsOf({ matrix: every }));

    // Assess
    expect(section).toContain(`All ${routeEntries.length} routes measured.`);
    expect(section).not.toContain('Not measured');
  });
});

describe('docs/route-costs.json and docs/operations.md', () => {
  it('records only routes of the route table', () => {
    // Prepare
    const names = new Set(routeEntries.map(([name]) => name));

    // Act
    const unknown = Object.keys(readRouteCosts().routes).filter((name) => !names.has(name as never));

    // Assess
    expect(unknown).toEqual([]);
  });

  it('hold the cost tables npm run docs:costs writes from the recorded figures', async () => {
    // Prepare
    const committed = readFileSync(OPERATIONS_DOC_PATH, 'utf8');

    // Act
    const generated = await renderOperationsDoc(committed, readRouteCosts());

    // Assess
    expect(costSectionOf(committed), 'run `npm run docs:costs` (or tsx infra/build/generate-cost-doc.ts)').toBe(
      costSectionOf(generated),
    );
  });
});
