import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { CORS_ALLOWED_HEADERS } from '../../shared/constants';
import { pathParamNames, type RouteDefinition } from '../../shared/routes/define-route';
import type { EdgeCache } from './edge-cache';
import { decodePathComponent } from './malformed-request';

export type LambdaHttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface MountedRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
  handler: LambdaHttpHandler;
}

/** API Gateway's own limits, kept locally so nothing works here that would fail in the cloud. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
const INTEGRATION_TIMEOUT_MS = 29_000;

function compile(route: RouteDefinition, handler: LambdaHttpHandler): MountedRoute {
  const pattern = new RegExp(
    `^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, '([^/]+)')}$`,
  );
  return { route, pattern, names: pathParamNames(route.path), handler };
}

function fakeContext(functionName: string): Context {
  const deadline = Date.now() + INTEGRATION_TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const EMPTY_BODY = Buffer.alloc(0);

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  // Most calls are GETs without a body: answer them without waiting for another event-loop turn.
  if (!request.headers['content-length'] && !request.headers['transfer-encoding']) {
    request.resume();
    return Promise.resolve(EMPTY_BODY);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, statusCode: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

/** The API Gateway v2 event the cloud would build for this request. */
function toEvent(
  request: IncomingMessage,
  url: URL,
  mounted: MountedRoute,
  match: RegExpMatchArray,
  body: Buffer,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies = (Array.isArray(value) ? value.join('; ') : value).split(/;\s*/).filter(Boolean);
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const queryStringParameters: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) queryStringParameters[key] = url.searchParams.getAll(key).join(',');
  const pathParameters: Record<string, string> = {};
  mounted.names.forEach((name, index) => {
    pathParameters[name] = decodePathComponent(match[index + 1] as string);
  });
  const method = request.method ?? 'GET';
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${mounted.route.method} ${mounted.route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(queryStringParameters).length ? { queryStringParameters } : {}),
    ...(mounted.names.length ? { pathParameters } : {}),
    ...(body.length ? { body: body.toString('utf8') } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: `${mounted.route.method} ${mounted.route.path}`,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
  };
}

/**
 * Headers go through setHeader and the body as one string, so Node sends headers and body in
 * a single write with a Content-Length instead of a chunked writev: it doubles throughput.
 */
function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2, includeBody = true): void {
  response.statusCode = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, String(value));
  if (result.cookies?.length) response.setHeader('set-cookie', result.cookies);
  const body = result.body ?? '';
  if (!includeBody) response.end();
  else response.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}

export interface ApiRouterOptions {
  mounts: { route: RouteDefinition; handler: LambdaHttpHandler; name: string }[];
  allowedOrigins: readonly string[];
  /** CloudFront's cache in front of the API; absent means every request reaches the handler. */
  edgeCache?: EdgeCache;
}

function writeCached(
  response: ServerResponse,
  request: IncomingMessage,
  result: APIGatewayProxyStructuredResultV2,
  ageSeconds: number,
): void {
  response.setHeader('age', String(ageSeconds));
  response.setHeader('x-cache', 'Hit from local edge');
  const etag = result.headers?.etag;
  if (etag !== undefined && request.headers['if-none-match'] === String(etag)) {
    writeResult(response, { ...result, statusCode: 304 }, false);
  } else {
    writeResult(response, result, request.method !== 'HEAD');
  }
}

/**
 * Routes /api requests to the same handler exports the cloud invokes. Literal segments win
 * over parameters, as in API Gateway; preflights are answered here, as API Gateway's CORS does.
 */
export function createApiRouter(options: ApiRouterOptions) {
  const mounted = options.mounts
    .map(({ route, handler }) => compile(route, handler))
    .sort((a, b) => a.names.length - b.names.length || b.route.path.length - a.route.path.length);
  const names = new Map(options.mounts.map(({ route, name }) => [route, name]));
  // Paths without parameters are found by one map lookup; only the rest need a regex each.
  const literalRoutes = new Map<string, MountedRoute[]>();
  for (const entry of mounted.filter((candidate) => candidate.names.length === 0)) {
    literalRoutes.set(entry.route.path, [...(literalRoutes.get(entry.route.path) ?? []), entry]);
  }
  const parameterised = mounted.filter((candidate) => candidate.names.length > 0);

  return async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const literal = (literalRoutes.get(url.pathname) ?? []).map((entry) => ({
      entry,
      match: [url.pathname] as RegExpMatchArray,
    }));
    const candidates = [
      ...literal,
      ...parameterised
        .map((entry) => ({ entry, match: url.pathname.match(entry.pattern) }))
        .filter((candidate): candidate is { entry: MountedRoute; match: RegExpMatchArray } => candidate.match !== null),
    ];

    if (method === 'OPTIONS') {
      const origin = request.headers.origin;
      if (candidates.length === 0 || !origin || !options.allowedOrigins.includes(origin)) {
        response.writeHead(204).end();
        return;
      }
      response.writeHead(204, {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': [...new Set(candidates.map(({ entry }) => entry.route.method))].join(','),
        'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(','),
        'access-control-max-age': '600',
        vary: 'Origin',
      });
      response.end();
      return;
    }

    const lookupMethod = method === 'HEAD' ? 'GET' : method;
    const edgeKey =
      lookupMethod === 'GET' && options.edgeCache
        ? options.edgeCache.key(url.pathname, url.search, request.headers.origin)
        : undefined;
    const hit = edgeKey === undefined ? undefined : options.edgeCache?.lookup(edgeKey);
    if (hit) {
      request.resume();
      writeCached(response, request, hit.result, hit.ageSeconds);
      return;
    }
    const chosen = candidates.find(({ entry }) => entry.route.method === lookupMethod);
    if (!chosen) {
      if (candidates.length > 0) {
        const allowed = [...new Set(candidates.map(({ entry }) => entry.route.method))].join(', ');
        sendJson(
          response,
          405,
          { message: `${method} is not supported here; use ${allowed}.`, code: 'METHOD_NOT_ALLOWED' },
          { allow: allowed },
        );
      } else {
        sendJson(response, 404, { message: `There is no endpoint at ${method} ${url.pathname}.`, code: 'NOT_FOUND' });
      }
      return;
    }

    const body = await readBody(request);
    if (body === 'too-large') {
      sendJson(response, 413, { message: 'The request body is larger than 6 MB.', code: 'PAYLOAD_TOO_LARGE' });
      return;
    }
    const event = toEvent(request, url, chosen.entry, chosen.match, body);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), INTEGRATION_TIMEOUT_MS);
    });
    try {
      const result = await Promise.race([
        chosen.entry.handler(event, fakeContext(names.get(chosen.entry.route) ?? 'local')),
        timeout,
      ]);
      if (result !== 'timeout' && edgeKey !== undefined) options.edgeCache?.store(edgeKey, result);
      if (result === 'timeout') {
        sendJson(response, 504, { message: 'The endpoint took too long to answer.', code: 'GATEWAY_TIMEOUT' });
      } else if (method === 'HEAD') {
        writeResult(response, result, false);
      } else {
        writeResult(response, result);
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
