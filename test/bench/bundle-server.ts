/**
 * One deployed bundle behind the thinnest HTTP adapter: each request becomes the API Gateway
 * event Lambda would receive and the answer is written back, with nothing of the local runtime
 * around it (no router, no function scopes, no other handlers in the process). Under load it
 * shows what the handler itself costs per request, the compute Lambda bills, apart from what
 * `npm start` adds to emulate AWS. Prints its port once listening.
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const [bundleFile, routePath] = process.argv.slice(2) as [string, string];
const { handler } = (await import(pathToFileURL(bundleFile).href)) as { handler: Handler };

const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'bench',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:bench',
  memoryLimitInMB: '256',
  awsRequestId: 'bench',
  logGroupName: 'bench',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 29_000,
} as Context;

/** API Gateway builds the event outside the function's bill: kept cheap, no WHATWG URL parse. */
function toEvent(target: string, headers: Record<string, string>): APIGatewayProxyEventV2 {
  const queryAt = target.indexOf('?');
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  const rawQueryString = queryAt === -1 ? '' : target.slice(queryAt + 1);
  return {
    version: '2.0',
    routeKey: `GET ${routePath}`,
    rawPath: pathname,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters: Object.fromEntries(new URLSearchParams(rawQueryString)) } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: 'GET',
        path: pathname,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: 'bench',
      routeKey: `GET ${routePath}`,
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
  };
}

const server = createServer((request, response) => {
  handler(toEvent(request.url ?? '/', request.headers as Record<string, string>), context).then(
    (result) => {
      response.statusCode = result.statusCode ?? 200;
      for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, String(value));
      response.end(result.body ?? '');
    },
    (error: unknown) => {
      console.error(error);
      response.statusCode = 500;
      response.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
