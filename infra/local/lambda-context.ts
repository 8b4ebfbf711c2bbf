import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * The context Lambda's runtime passes a function with each invocation, as the local runtime
 * gives it: its name, a request id, and above all its remaining time before `deadline`.
 * A class, not an object literal of arrow functions: one is built per local invocation, and
 * its methods then live once on the prototype instead of as four new closures per call.
 */
class LocalLambdaContext implements Context {
  readonly callbackWaitsForEmptyEventLoop = false;
  readonly functionVersion = '$LATEST';
  readonly logStreamName = 'local';
  readonly awsRequestId = randomUUID();
  readonly invokedFunctionArn: string;
  readonly memoryLimitInMB: string;
  readonly logGroupName: string;

  constructor(
    readonly functionName: string,
    private readonly deadline: number,
    private readonly now: () => number,
    memoryMb: number,
    region: string,
  ) {
    this.invokedFunctionArn = `arn:aws:lambda:${region}:000000000000:function:${functionName}`;
    this.memoryLimitInMB = String(memoryMb);
    this.logGroupName = `/aws/lambda/${functionName}`;
  }

  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - this.now());
  }

  // The callback-era methods Context still declares; nothing of ours calls them.
  done(): void {}
  fail(): void {}
  succeed(): void {}
}

export function lambdaContext(options: {
  functionName: string;
  /** When the function's timeout ends, in the clock's milliseconds. */
  deadline: number;
  memoryMb?: number;
  region?: string;
  now?: () => number;
}): Context {
  return new LocalLambdaContext(
    options.functionName,
    options.deadline,
    options.now ?? Date.now,
    options.memoryMb ?? 256,
    options.region ?? 'local',
  );
}
