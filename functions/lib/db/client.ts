import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { boundedRequestHandler } from '../aws-request-handler';
import { getConfig } from '../config';

/** What a handler's request to the table may take at most; past it the attempt fails (and is retried). */
export const HANDLER_REQUEST_TIMEOUT_MS = 5_000;

/**
 * Bounded timeouts so a throttled, unreachable or unanswering database gives the caller a 503 in
 * a few seconds instead of a hanging request (see boundedRequestHandler). A bulk writer (the
 * local demo seed) passes a longer `requestTimeout`: its BatchWrites queue behind one another by
 * design, and a handler's bound would fail them.
 */
export function createDocumentClient(options: {
  endpoint?: string | undefined;
  region: string;
  requestTimeout?: number;
}): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
    requestHandler: boundedRequestHandler(options.requestTimeout ?? HANDLER_REQUEST_TIMEOUT_MS),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

let documentClient: DynamoDBDocumentClient | undefined;

/** The module-scope client every handler shares within one Lambda instance. */
export function getDocumentClient(): DynamoDBDocumentClient {
  if (!documentClient) {
    const config = getConfig();
    documentClient = createDocumentClient({ endpoint: config.dynamoDbEndpoint, region: config.region });
  }
  return documentClient;
}
