import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
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
  return async () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    delete holder[SHARED];
    await dynamo.stop();
  };
}
