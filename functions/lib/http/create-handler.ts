import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from '../../../shared/zod';
import { APPLICATION_ID_HEADER, APP_TOKEN_HEADER, WEB_APPLICATION_ID } from '../../../shared/constants';
import { accessLevels, type RouteDefinition } from '../../../shared/routes/define-route';
import { getConfig } from '../config';
import { getDb } from '../db/service';
import { Forbidden, HttpError, isDependencyUnavailable, Unauthorized } from '../errors';
import { logger, publishMetrics } from '../logger';
import { renewSession } from '../sessions';
import { type Caller, type CallerFor, readSessionToken, resolveCaller, type ResolvedCaller } from './caller';
import { parseCookies } from './cookies';
import { parseInput } from './parse-input';
import { PreparedJson, Redirect, Reply, TextDocument } from './responses';
import { withRemainingTime } from '../invocation-time';
import { API_SECURITY_HEADERS } from './security-headers';

export interface HandlerInput<R extends RouteDefinition> {
  params: z.output<R['params']>;
  query: z.output<R['query']>;
  body: z.output<R['body']>;
  /** Who is calling, as the route's access level guarantees it. */
  caller: CallerFor<R['access']>;
  /** Request headers, names lower-cased. */
  headers: Readonly<Record<string, string>>;
  /** Request cookies by name. */
  cookies: Readonly<Record<string, string>>;
  /** The session token the caller sent (cookie or header), live or not. */
  sessionToken: string | undefined;
  event: APIGatewayProxyEventV2;
  /** How long the function may still run before Lambda stops it, in milliseconds. */
  remainingTimeMs: () => number;
}

type ResponseBody<R extends RouteDefinition> = z.input<R['response']>;

/**
 * What a handler may answer, checked against the route's response schema at compile time: the
 * body itself, a Reply of it (status, headers, cookies), a PreparedJson of it, or, for the
 * routes whose response is a redirect, only a Redirect.
 */
export type HandlerResult<R extends RouteDefinition> = [ResponseBody<R>] extends [undefined]
  ? Redirect
  : [ResponseBody<R>] extends [string]
    ? TextDocument
    : ResponseBody<R> | Reply<ResponseBody<R>> | PreparedJson<ResponseBody<R>>;

type Result = APIGatewayProxyStructuredResultV2;

/** What the pipeline learns before the handler runs; kept on the request, not the event. */
interface RequestState {
  headers: Record<string, string>;
  cookies: Readonly<Record<string, string>>;
  sessionToken: string | undefined;
  resolved: ResolvedCaller;
}
/** Middy passes the Lambda context to every middleware and the handler: the pipeline's findings ride on it. */
type PipelineContext = Context & { requestState?: RequestState };
type Middleware = middy.MiddlewareObj<APIGatewayProxyEventV2, Result, Error, PipelineContext>;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function lowerCaseHeaders(headers: APIGatewayProxyEventV2['headers'] | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) lowered[name.toLowerCase()] = value;
  return lowered;
}

function checkAccess(route: RouteDefinition, caller: Caller): void {
  const levels = accessLevels(route.access);
  if (levels.includes('public')) return;
  if (caller.kind === 'anonymous') {
    throw new Unauthorized(levels.includes('app') ? 'This endpoint needs app credentials or a signed-in user.' : undefined);
  }
  const allowed = levels.some(
    (level) =>
      (level === 'user' && caller.kind === 'user') ||
      (level === 'superuser' && caller.kind === 'user' && caller.isSuperUser) ||
      (level === 'app' && caller.kind === 'app'),
  );
  if (allowed) return;
  const names = { user: 'signed-in users', superuser: 'superusers', app: 'registered apps' } as const;
  throw new Forbidden(`This endpoint is for ${levels.map((level) => names[level as keyof typeof names]).join(' and ')}.`);
}

/**
 * State-changing calls, whatever their method, must name their app (a custom header forces a
 * CORS preflight, which another site's page cannot pass) and come from an allowed origin.
 * Browsers send the web app's id; server-side apps send their own id, which resolveCaller then
 * proves with their token.
 */
function checkStateChangingRequest(
  route: RouteDefinition,
  headers: Record<string, string>,
  allowedOrigins: readonly string[],
): void {
  if (!route.stateChanging) return;
  const applicationId = headers[APPLICATION_ID_HEADER];
  if (!applicationId) throw new Forbidden(`State-changing requests must send the ${APPLICATION_ID_HEADER} header.`);
  if (headers[APP_TOKEN_HEADER] === undefined && applicationId !== WEB_APPLICATION_ID) {
    throw new Forbidden(
      `Unknown ${APPLICATION_ID_HEADER} '${applicationId}': apps other than the web app must also send their ${APP_TOKEN_HEADER}.`,
    );
  }
  const origin = headers.origin;
  if (origin && !allowedOrigins.includes(origin)) throw new Forbidden(`Requests from ${origin} are not allowed.`);
}

function cacheControl(route: RouteDefinition): string {
  if (route.method !== 'GET' || !route.cacheSeconds) return 'no-store';
  const seconds = route.cacheSeconds;
  return `public, max-age=${seconds}, s-maxage=${seconds}, stale-while-revalidate=${seconds * 5}`;
}

/**
 * If-None-Match as RFC 9110 reads it for a GET: a list of tags compared weakly (a proxy may
 * have weakened ours), or `*`. Readers and caches send one tag, which costs one comparison.
 */
function namesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch === etag) return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque;
  });
}

function toResult(route: RouteDefinition, outcome: unknown, requestHeaders: Record<string, string>): Result {
  if (outcome instanceof Redirect) {
    return {
      statusCode: 302,
      // The location may carry a one-time code: never leak it to the next site as a referrer.
      headers: { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      body: '',
      ...(outcome.cookies.length > 0 ? { cookies: [...outcome.cookies] } : {}),
    };
  }
  if (outcome instanceof TextDocument) {
    if (outcome.statusCode !== 200 || route.method !== 'GET' || route.cacheSeconds === undefined) {
      return {
        statusCode: outcome.statusCode,
        headers: {
          'content-type': outcome.contentType,
          'cache-control': outcome.statusCode === 200 ? cacheControl(route) : 'no-store',
        },
        body: outcome.text,
      };
    }
    const headers = { 'content-type': outcome.contentType, 'cache-control': cacheControl(route), etag: outcome.etag };
    if (namesEtag(requestHeaders['if-none-match'], outcome.etag)) return { statusCode: 304, headers, body: '' };
    return { statusCode: 200, headers, body: outcome.text };
  }
  if (outcome instanceof Reply) {
    return {
      statusCode: outcome.statusCode,
      headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store', ...outcome.headers },
      body: JSON.stringify(outcome.body ?? null),
      ...(outcome.cookies.length > 0 ? { cookies: [...outcome.cookies] } : {}),
    };
  }
  // Literal header objects, not spreads: this runs on every answer, and a spread of a shared
  // constant costs more than everything else here.
  const cacheable = route.method === 'GET' && route.cacheSeconds !== undefined;
  if (!cacheable) {
    const json = outcome instanceof PreparedJson ? outcome.json : JSON.stringify(outcome ?? null);
    return { statusCode: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': cacheControl(route) }, body: json };
  }
  const prepared = outcome instanceof PreparedJson ? outcome : PreparedJson.of(outcome);
  const headers = { 'content-type': JSON_CONTENT_TYPE, 'cache-control': cacheControl(route), etag: prepared.etag };
  if (requestHeaders['if-none-match'] === prepared.etag) return { statusCode: 304, headers, body: '' };
  return { statusCode: 200, headers, body: prepared.json };
}

export function errorToResult(error: unknown): Result {
  if (error instanceof HttpError) {
    // Our own 5xx answers (e.g. "rankings are being computed") are expected states, not incidents:
    // note them without a stack so they do not drown real warnings.
    if (error.statusCode >= 500) logger.info('Answered with a server-side error', { code: error.code, reason: error.message });
    const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' };
    const retryAfter = error.details.retryAfterSeconds;
    if (typeof retryAfter === 'number') headers['retry-after'] = String(retryAfter);
    return {
      statusCode: error.statusCode,
      headers,
      body: JSON.stringify({ message: error.message, code: error.code, ...error.details }),
    };
  }
  if (isDependencyUnavailable(error)) {
    logger.warn('A dependency is unavailable or throttling', { error: error as Error });
    return {
      statusCode: 503,
      headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store', 'retry-after': '5' },
      body: JSON.stringify({
        message: 'The service is busy or briefly unavailable. Please try again in a few seconds.',
        code: 'SERVICE_UNAVAILABLE',
      }),
    };
  }
  logger.error('Unhandled error', { error: error as Error });
  return {
    statusCode: 500,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' },
    body: JSON.stringify({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }),
  };
}

/**
 * The request pipeline every HTTP endpoint shares: headers normalised, the state-changing rule
 * checked, caller resolved (read-only), access checked, the session renewed where the route may
 * write, input validated, then the handler; errors mapped last, metrics flushed either way.
 * The returned handler carries its route, so a test can prove each file serves its own entry.
 */
export function createHandler<R extends RouteDefinition>(
  route: R,
  handle: (input: HandlerInput<R>) => Promise<HandlerResult<R>>,
) {
  const config = getConfig();
  const mayWriteTable = route.capabilities.table === 'read-write';

  const pipeline: Middleware = {
    before: async (request) => {
      // Powertools' injectLambdaContext also re-draws debug-log sampling and clears the log
      // buffer on every call, each reading the environment; we use neither, so only the context.
      logger.addContext(request.context);
      const headers = lowerCaseHeaders(request.event.headers);
      checkStateChangingRequest(route, headers, config.allowedOrigins);
      const cookies = parseCookies(request.event.cookies);
      const sessionToken = readSessionToken(headers, cookies);
      const resolved = await resolveCaller(headers, sessionToken);
      checkAccess(route, resolved.caller);
      // Only routes granted table writes renew a session: a read route that wrote would be
      // refused by its read-only grant and fail every returning user's first request.
      if (mayWriteTable && resolved.session?.renewalDue) {
        // A busy table must not cost the user their request: the session stays valid until its
        // current expiry, and a later call renews it. Anything else is a real fault.
        await renewSession(getDb(), resolved.session.tokenHash).catch((error: unknown) => {
          if (!isDependencyUnavailable(error)) throw error;
          logger.warn('Could not renew a session; it stays valid until its current expiry', { error: error as Error });
        });
      }
      request.context.requestState = { headers, cookies, sessionToken, resolved };
    },
  };

  // One line per answer, joinable with the API's access log by its request id: the access log
  // cannot know who called (only the pipeline resolves the caller), and neither logs a token.
  const routeKey = `${route.method} ${route.path}`;

  // Every answer, an error's included: the security headers (copied in, not spread: spreading a
  // per-answer object costs more than the copy), the metrics published (a call that recorded
  // none publishes nothing; Powertools' own middleware would log a warning on every such call),
  // and the answer's log line. One middleware rather than three: middy awaits each one, and
  // every await is a promise and a microtask turn on every call.
  const finishAnswer = (request: middy.Request<APIGatewayProxyEventV2, Result, Error, PipelineContext>) => {
    if (request.response) request.response.headers = Object.assign({}, API_SECURITY_HEADERS, request.response.headers);
    publishMetrics();
    logger.info('Answered', {
      route: routeKey,
      status: request.response?.statusCode,
      callerKind: request.context.requestState?.resolved.caller.kind ?? 'unresolved',
      apiRequestId: request.event.requestContext?.requestId,
    });
  };
  const answer: Middleware = { after: finishAnswer, onError: finishAnswer };

  const errorHandler: Middleware = {
    onError: (request) => {
      request.response = errorToResult(request.error);
    },
  };

  // No early timeout: middy would arm a timer and race it on every call (a few µs each) to answer
  // 5 ms before Lambda's limit; Lambda already ends, logs and counts a timed-out call, and API
  // Gateway answers the caller.
  const handler = middy<APIGatewayProxyEventV2, Result, Error, PipelineContext>({ timeoutEarlyInMillis: 0 })
    .use(answer)
    // No CORS middleware: API Gateway adds the CORS headers and ignores any a function sends
    // (shared/constants.ts, API_CORS). Middy's would cost 7 µs a request for nothing.
    .use(pipeline)
    .use(errorHandler)
    .handler(async (event, context) => {
      const state = context.requestState;
      if (!state) throw new Error('The request pipeline did not run before the handler');
      const input = parseInput(route, event, state.headers) as Pick<HandlerInput<R>, 'params' | 'query' | 'body'>;
      const remainingTimeMs = () => context.getRemainingTimeInMillis();
      const outcome = await withRemainingTime(remainingTimeMs, () =>
        handle({
          params: input.params,
          query: input.query,
          body: input.body,
          // checkAccess has just proven the caller is of a level the route allows.
          caller: state.resolved.caller as CallerFor<R['access']>,
          headers: state.headers,
          cookies: state.cookies,
          sessionToken: state.sessionToken,
          event,
          remainingTimeMs,
        }),
      );
      return toResult(route, outcome, state.headers);
    });
  return Object.assign(handler, { route });
}
