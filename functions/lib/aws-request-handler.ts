import type { Agent } from 'node:http';
import { NodeHttpHandler } from '@smithy/node-http-handler';

/** How long opening a connection to an AWS service may take before the attempt fails. */
const CONNECTION_TIMEOUT_MS = 1_000;

/**
 * The request handler every AWS SDK client of ours is built with: a connection bound and a
 * request bound that both fail the attempt. The SDK's own `requestTimeout` only logs a warning
 * unless `throwOnRequestTimeout` is set, so without it a service that accepts the connection and
 * never answers holds the caller until the Lambda itself times out, instead of the quick 503 the
 * HTTP pipeline gives for a TimeoutError. The SDK retries a timed-out attempt like any transient
 * fault, so a caller waits at most about `maxAttempts` times `requestTimeoutMs`.
 */
export function boundedRequestHandler(
  requestTimeoutMs: number,
  options: { connectionTimeoutMs?: number; httpAgent?: Agent } = {},
): NodeHttpHandler {
  return new NodeHttpHandler({
    connectionTimeout: options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS,
    requestTimeout: requestTimeoutMs,
    throwOnRequestTimeout: true,
    ...(options.httpAgent ? { httpAgent: options.httpAgent } : {}),
  });
}
