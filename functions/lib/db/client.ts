import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { getConfig } from '../config';

/** What a handler's request to the table should take at most; the SDK warns past it. */
export const HANDLER_REQUEST_TIMEOUT_MS = 5_000;

/**
 * Bounded timeouts so a throttled or unreachable database gives the caller a 503 in a few
 * seconds instead of a hanging request. A bulk writer (the local demo seed) passes a longer
 * `requestTimeout`: its BatchWrites queue behind one another by design, and the SDK prints a
 * warning for every request that outlasts the bound.
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
    requestHandler: new NodeHttpHandler({
      connectionTimeout: 1_000,
      requestTimeout: options.requestTimeout ?? HANDLER_REQUEST_TIMEOUT_MS,
    }),
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
