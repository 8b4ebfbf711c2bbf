import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_SECURITY_HEADERS } from '../../functions/lib/http/security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { API_CORS } from '../../shared/constants';
import { DEFAULT_ROUTE_TIMEOUT_SECONDS, pathParamNames, type RouteDefinition } from '../../shared/routes/define-route';
import { DeadlineTimer } from './deadline-timer';
import type { EdgeCache } from './edge-cache';
import { lambdaContext } from './lambda-context';
import { decodePathComponent } from './malformed-request';

export type LambdaHttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface MountedRoute {
  route: RouteDefinition;
  /** The function's name, as its Lambda context names it. */
  functionName: string;
  pattern: RegExp;
  names: string[];
  handler: LambdaHttpHandler;
  /** How long its Lambda may run, as CDK configures it. */
  functionTimeoutMs: number;
}

interface Candidate {
  entry: MountedRoute;
  /** The path's regex match; undefined for a route without parameters. */
  match: RegExpMatchArray | undefined;
}

/** API Gateway's own limits, kept locally so nothing works here that would fail in the cloud. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
/** Lambda's limit on what a synchronous invocation answers: the whole result, as JSON. */
const MAX_RESPONSE_BYTES = 6_291_556;
/** A UTF-8 character is at most 3 bytes per UTF-16 unit, so a shorter body cannot reach the limit. */
const RESPONSE_CHECK_FROM_LENGTH = Math.floor(MAX_RESPONSE_BYTES / 3) - 64 * 1024;

/** Whether Lambda would refuse to return this result; measured only for large bodies, off the hot path. */
function tooLargeForLambda(result: APIGatewayProxyStructuredResultV2): boolean {
  if ((result.body?.length ?? 0) < RESPONSE_CHECK_FROM_LENGTH) return false;
  return Buffer.byteLength(JSON.stringify(result)) > MAX_RESPONSE_BYTES;
}
const INTEGRATION_TIMEOUT_MS = 29_000;

function compile(route: RouteDefinition, handler: LambdaHttpHandler, functionName: string): MountedRoute {
  const pattern = new RegExp(
    `^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, '([^/]+)')}$`,
  );
  const functionTimeoutMs = (route.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS) * 1000;
  return { route, functionName, pattern, names: pathParamNames(route.path), handler, functionTimeoutMs };
}

const EMPTY_BODY = Buffer.alloc(0);

/** Most calls are GETs without a body: those are answered without waiting for another event-loop turn. */
function hasBody(request: IncomingMessage): boolean {
  return Boolean(request.headers['content-length'] || request.headers['transfer-encoding']);
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
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
  response.writeHead(statusCode, { ...API_SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');
let gatewaySecond = -1;
let gatewaySecondText = '';

/**
 * `requestContext.time` as API Gateway writes it ("26/Nov/2026:16:05:37 +0000", the access
 * log's format, not ISO), formatted once per second rather than once per request.
 */
function gatewayTime(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== gatewaySecond) {
    const date = new Date(second * 1000);
    gatewaySecondText =
      `${twoDigits(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
      `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())} +0000`;
    gatewaySecond = second;
  }
  return gatewaySecondText;
}

/** The API Gateway v2 event the cloud would build for this request. */
function toEvent(
  request: IncomingMessage,
  url: URL,
  mounted: MountedRoute,
  match: RegExpMatchArray | undefined,
  body: Buffer,
): APIGatewayProxyEventV2 {
  // Built field by field: this runs on every request, and spreads of per-request objects cost
  // more than the rest of the emulation together (see test/bench/pipeline.ts).
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  const incoming = request.headers;
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined) continue;
    if (name === 'cookie') cookies = (Array.isArray(value) ? value.join('; ') : value).split(/;\s*/).filter(Boolean);
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const routeKey = `${mounted.route.method} ${mounted.route.path}`;
  const now = Date.now();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: gatewayTime(now),
      timeEpoch: now,
    },
  };
  if (cookies) event.cookies = cookies;
  if (url.search.length > 1) {
    // API Gateway joins repeated parameters with commas.
    const queryStringParameters: Record<string, string> = {};
    let any = false;
    for (const [key, value] of url.searchParams) {
      const previous = queryStringParameters[key];
      queryStringParameters[key] = previous === undefined ? value : `${previous},${value}`;
      any = true;
    }
    if (any) event.queryStringParameters = queryStringParameters;
  }
  if (match && mounted.names.length > 0) {
    const pathParameters: Record<string, string> = {};
    for (let index = 0; index < mounted.names.length; index += 1) {
      pathParameters[mounted.names[index] as string] = decodePathComponent(match[index + 1] as string);
    }
    event.pathParameters = pathParameters;
  }
  if (body.length > 0) event.body = body.toString('utf8');
  return event;
}

/**
 * Headers go through setHeader and the body as one string, so Node sends headers and body in
 * a single write with a Content-Length instead of a chunked writev: it doubles throughput.
 */
const EXPOSED_HEADERS = API_CORS.exposeHeaders.join(',');

/**
 * What API Gateway does to an integration's answer when the API has a CORS configuration: any
 * CORS header the function sent is dropped, and an allowed origin gets the configured ones.
 */
function withGatewayCors(
  result: APIGatewayProxyStructuredResultV2,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string | number | boolean> = {};
  for (const name in result.headers) {
    if (!name.toLowerCase().startsWith('access-control-')) headers[name] = result.headers[name] as string | number | boolean;
  }
  if (origin !== undefined && allowedOrigins.includes(origin)) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-allow-credentials'] = 'true';
    headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    headers.vary = headers.vary ? `${String(headers.vary)}, Origin` : 'Origin';
  }
  result.headers = headers;
  return result;
}

function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2, includeBody = true): void {
  response.statusCode = result.statusCode ?? 200;
  const headers = result.headers;
  for (const name in headers) response.setHeader(name, String(headers[name]));
  if (result.cookies?.length) response.setHeader('set-cookie', result.cookies);
  const body = result.body ?? '';
  if (!includeBody) response.end();
  // Bytes, not the string: a string kept and written again (an edge cache hit, a prepared board)
  // is written by Node's socket several times slower than the same text encoded first (4 ms
  // against 1 ms for 370 KB, measured); for a fresh string the two cost the same.
  else response.end(Buffer.from(body, result.isBase64Encoded ? 'base64' : 'utf8'));
}

export interface ApiRouterOptions {
  mounts: { route: RouteDefinition; handler: LambdaHttpHandler; name: string }[];
  allowedOrigins: readonly string[];
  /** CloudFront's cache in front of the API; absent means every request reaches the handler. */
  edgeCache?: EdgeCache;
  /** How long a handler may take before the caller gets a 504; API Gateway's 29 s by default. */
  integrationTimeoutMs?: number;
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
 * The path a route is matched on. API Gateway's HTTP API takes no route key ending in a slash,
 * and matches `/a/b/` to the route `/a/b` (the event's rawPath keeps the slash): so does this
 * router. A parameter is never matched by an empty segment: `/items/` is not `/items/{id}`.
 */
const routedPath = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * Routes /api requests to the same handler exports the cloud invokes. Literal segments win
 * over parameters, as in API Gateway. CORS is API Gateway's, as configured from API_CORS:
 * preflights are answered here, and answers get their CORS headers here, not from functions.
 */
export function createApiRouter(options: ApiRouterOptions) {
  const mounted = options.mounts
    .map(({ route, handler, name }) => compile(route, handler, name))
    .sort((a, b) => a.names.length - b.names.length || b.route.path.length - a.route.path.length);
  // Paths without parameters are found by one map lookup; only the rest need a regex each.
  const literalRoutes = new Map<string, MountedRoute[]>();
  const literalByMethod = new Map<string, MountedRoute>();
  for (const entry of mounted.filter((candidate) => candidate.names.length === 0)) {
    literalRoutes.set(entry.route.path, [...(literalRoutes.get(entry.route.path) ?? []), entry]);
    literalByMethod.set(`${entry.route.method} ${entry.route.path}`, entry);
  }
  const parameterised = mounted.filter((candidate) => candidate.names.length > 0);
  const integrationTimeoutMs = options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;
  const deadlines = new DeadlineTimer();

  /** The route API Gateway would pick for this method and path: a literal one first. */
  function findRoute(method: string, requestPath: string): Candidate | undefined {
    const path = routedPath(requestPath);
    const literal = literalByMethod.get(`${method} ${path}`);
    if (literal) return { entry: literal, match: undefined };
    for (const entry of parameterised) {
      if (entry.route.method !== method) continue;
      const match = path.match(entry.pattern);
      if (match) return { entry, match };
    }
    return undefined;
  }

  /** Every route on this path, whatever its method: for preflights and 405s only. */
  function routesOnPath(requestPath: string): MountedRoute[] {
    const path = routedPath(requestPath);
    return [...(literalRoutes.get(path) ?? []), ...parameterised.filter((entry) => entry.pattern.test(path))];
  }

  function allowedMethods(routes: readonly MountedRoute[]): string[] {
    return [...new Set(routes.map((entry) => entry.route.method))];
  }

  function answerPreflight(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const routes = routesOnPath(url.pathname);
    const origin = request.headers.origin;
    if (routes.length === 0 || !origin || !options.allowedOrigins.includes(origin)) {
      response.writeHead(204).end();
      return;
    }
    response.writeHead(204, {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': API_CORS.allowMethods.join(','),
      'access-control-allow-headers': API_CORS.allowHeaders.join(','),
      'access-control-max-age': String(API_CORS.maxAgeSeconds),
      vary: 'Origin',
    });
    response.end();
  }

  function answerNoRoute(response: ServerResponse, method: string, url: URL): void {
    const routes = routesOnPath(url.pathname);
    if (routes.length > 0) {
      const allowed = allowedMethods(routes).join(', ');
      sendJson(
        response,
        405,
        { message: `${method} is not supported here; use ${allowed}.`, code: 'METHOD_NOT_ALLOWED' },
        { allow: allowed },
      );
    } else {
      sendJson(response, 404, { message: `There is no endpoint at ${method} ${url.pathname}.`, code: 'NOT_FOUND' });
    }
  }

  return async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    if (method === 'OPTIONS') {
      answerPreflight(request, response, url);
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
    const chosen = findRoute(lookupMethod, url.pathname);
    if (!chosen) {
      answerNoRoute(response, method, url);
      return;
    }

    let body: Buffer = EMPTY_BODY;
    if (hasBody(request)) {
      const read = await readBody(request);
      if (read === 'too-large') {
        sendJson(response, 413, { message: 'The request body is larger than 6 MB.', code: 'PAYLOAD_TOO_LARGE' });
        return;
      }
      body = read;
    } else {
      request.resume();
    }
    const event = toEvent(request, url, chosen.entry, chosen.match, body);
    const result = await invokeWithin(deadlines, chosen.entry, event, integrationTimeoutMs);
    if (result === 'integration-timeout') {
      sendJson(response, 504, { message: 'The endpoint took too long to answer.', code: 'GATEWAY_TIMEOUT' });
      return;
    }
    if (result === 'function-timeout') {
      // Lambda stops the function at its timeout, and API Gateway answers a failed invocation so.
      console.error(`${chosen.entry.functionName} timed out after ${chosen.entry.functionTimeoutMs} ms`);
      sendJson(response, 500, { message: 'Internal Server Error' });
      return;
    }
    if (tooLargeForLambda(result)) {
      // Lambda fails the invocation instead of returning it, and API Gateway answers the failure so.
      console.error(`${chosen.entry.functionName} answered more than Lambda's ${MAX_RESPONSE_BYTES} bytes`);
      sendJson(response, 500, { message: 'Internal Server Error' });
      return;
    }
    // CloudFront caches what API Gateway answers, CORS headers included (its key has the origin).
    withGatewayCors(result, request.headers.origin, options.allowedOrigins);
    if (edgeKey !== undefined) options.edgeCache?.store(edgeKey, result);
    writeResult(response, result, method !== 'HEAD');
  };
}

/**
 * The handler's answer; or 'function-timeout' once Lambda would have stopped the function at its
 * own timeout, or 'integration-timeout' once API Gateway would have stopped waiting, whichever
 * comes first.
 */
function invokeWithin(
  deadlines: DeadlineTimer,
  entry: MountedRoute,
  event: APIGatewayProxyEventV2,
  integrationTimeoutMs: number,
): Promise<APIGatewayProxyStructuredResultV2 | 'function-timeout' | 'integration-timeout'> {
  const functionEnds = entry.functionTimeoutMs <= integrationTimeoutMs;
  const deadline = Date.now() + (functionEnds ? entry.functionTimeoutMs : integrationTimeoutMs);
  return new Promise((resolve, reject) => {
    const watch = deadlines.watch(deadline, () => resolve(functionEnds ? 'function-timeout' : 'integration-timeout'));
    entry.handler(event, lambdaContext({ functionName: entry.functionName, deadline })).then(
      (result) => {
        deadlines.cancel(watch);
        resolve(result);
      },
      (error: unknown) => {
        deadlines.cancel(watch);
        reject(error);
      },
    );
  });
}
