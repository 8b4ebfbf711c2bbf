import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  readRouteCosts,
  readSuiteFloors,
  suitesBudgetProblems,
  UPDATE_ROUTE_COSTS_VARIABLE,
} from '../../infra/build/route-costs';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** Where the integration suites' runtimes write what their routes took (recordSuiteUnits). */
    suiteUnitsDir: string | undefined;
  }
}

type DynamoDbLocal = Awaited<ReturnType<typeof startDynamoDbLocal>>;
interface SharedDynamoDb {
  started: Promise<DynamoDbLocal>;
  projects: number;
}

/** Held on the main process's global object: Vitest loads this file once per project. */
const SHARED = Symbol.for('toppubs.test.dynamoDbLocal');
const holder = globalThis as { [SHARED]?: SharedDynamoDb };

/**
 * One in-memory DynamoDB Local for the whole run, whichever projects run: every suite creates
 * its own table in it. Each project that lists this setup used to start its own (three Java
 * processes at the start of a full run, on a two-core machine); the last project's teardown
 * stops the shared one.
 */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const shared = (holder[SHARED] ??= { started: startDynamoDbLocal(), projects: 0 });
  shared.projects += 1;
  const dynamo = await shared.started;
  project.provide('dynamoEndpoint', dynamo.endpoint);
  const suiteUnits = project.name === 'integration' ? heldSuiteUnits() : undefined;
  project.provide('suiteUnitsDir', suiteUnits?.directory);
  return async () => {
    try {
      suiteUnits?.settle();
    } finally {
      shared.projects -= 1;
      if (shared.projects === 0) {
        delete holder[SHARED];
        await dynamo.stop();
      }
    }
  };
}

/**
 * The integration suites' `suites` pass, held to docs/route-costs.json at the end of a normal
 * run (infra/build/route-costs.ts, suitesBudgetProblems): the cheapest requests of the routes
 * neither the route matrix nor the route fuzz reaches, which only these suites measure. `npm run docs:costs` records the
 * pass instead, in a directory of its own.
 */
function heldSuiteUnits(): { directory: string; settle: () => void } | undefined {
  if (process.env[UPDATE_ROUTE_COSTS_VARIABLE]) return undefined;
  const directory = mkdtempSync(join(tmpdir(), 'toppubs-suite-units-'));
  return {
    directory,
    settle: () => {
      try {
        const problems = suitesBudgetProblems(readSuiteFloors(directory), readRouteCosts());
        if (problems.length > 0) {
          throw new Error(`Routes only the integration suites measure cost more than recorded:\n${problems.join('\n')}`);
        }
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
