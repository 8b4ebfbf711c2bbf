import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * The context Lambda's runtime passes a function with each invocation, as the local runtime
 * gives it: its name, a request id, and above all its remaining time before `deadline`.
 */
export function lambdaContext(options: {
  functionName: string;
  /** When the function's timeout ends, in the clock's milliseconds. */
  deadline: number;
  memoryMb?: number;
  region?: string;
  now?: () => number;
}): Context {
  const { functionName, deadline, now = Date.now } = options;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${options.region ?? 'local'}:000000000000:function:${functionName}`,
    memoryLimitInMB: String(options.memoryMb ?? 256),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
