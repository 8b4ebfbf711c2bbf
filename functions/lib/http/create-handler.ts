import middy from '@middy/core';
import httpCors from '@middy/http-cors';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { APPLICATION_ID_HEADER, APP_TOKEN_HEADER, CORS_ALLOWED_HEADERS, WEB_APPLICATION_ID } from '../../../shared/constants';
import type { RouteDefinition } from '../../../shared/routes/define-route';
import { getConfig } from '../config';
import { Forbidden, HttpError, isDependencyUnavailable, Unauthorized } from '../errors';
import { logger } from '../logger';
import { type Caller, resolveCaller } from './caller';
import { parseInput } from './parse-input';
import { HttpResponse, PreparedJson } from './responses';

export interface HandlerInput<R extends RouteDefinition> {
  params: z.output<R['params']>;
  query: z.output<R['query']>;
  body: z.output<R['body']>;
  caller: Caller;
  headers: Record<string, string>;
  event: APIGatewayProxyEventV2;
}

export type HandlerResult<R extends RouteDefinition> = z.input<R['response']> | PreparedJson | HttpResponse;

type Result = APIGatewayProxyStructuredResultV2;
interface RequestState {
  headers: Record<string, string>;
  caller: Caller;
}

// Middy passes only the event to the handler; the pipeline's findings ride along keyed by it.
const requestState = new WeakMap<APIGatewayProxyEventV2, RequestState>();

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function lowerCaseHeaders(headers: APIGatewayProxyEventV2['headers'] | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) lowered[name.toLowerCase()] = value;
  return lowered;
}

function checkAccess(route: RouteDefinition, caller: Caller): void {
  if (route.access === 'public') return;
  if (caller.kind === 'anonymous') {
    throw new Unauthorized(route.access === 'app' ? 'This endpoint needs app credentials or a superuser session.' : undefined);
  }
  const isSuperUser = caller.kind === 'user' && caller.isSuperUser;
  if (route.access === 'user' && caller.kind !== 'user') throw new Forbidden('This endpoint is for signed-in users.');
  if (route.access === 'app' && caller.kind !== 'app' && !isSuperUser)
    throw new Forbidden('This endpoint is for apps and superusers.');
  if (route.access === 'superuser' && !isSuperUser) throw new Forbidden('This endpoint is for superusers.');
}

/**
 * State-changing calls must name their app (a custom header forces a CORS preflight) and come
 * from an allowed origin. Browsers send the web app's id; server-side apps send their own id,
 * which resolveCaller then proves with their token.
 */
function checkStateChangingRequest(method: string, headers: Record<string, string>, allowedOrigins: readonly string[]): void {
  if (!STATE_CHANGING.has(method)) return;
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

function cacheHeaders(route: RouteDefinition): Record<string, string> {
  if (route.method !== 'GET' || !route.cacheSeconds) return { 'cache-control': 'no-store' };
  const seconds = route.cacheSeconds;
  return { 'cache-control': `public, max-age=${seconds}, s-maxage=${seconds}, stale-while-revalidate=${seconds * 5}` };
}

function toResult(route: RouteDefinition, outcome: unknown, requestHeaders: Record<string, string>): Result {
  if (outcome instanceof HttpResponse) {
    return {
      statusCode: outcome.statusCode,
      headers: { ...JSON_HEADERS, 'cache-control': 'no-store', ...outcome.headers },
      body: outcome.body === undefined ? '' : typeof outcome.body === 'string' ? outcome.body : JSON.stringify(outcome.body),
      ...(outcome.cookies.length > 0 ? { cookies: outcome.cookies } : {}),
    };
  }
  const cacheable = route.method === 'GET' && route.cacheSeconds !== undefined;
  if (!cacheable) {
    return { statusCode: 200, headers: { ...JSON_HEADERS, ...cacheHeaders(route) }, body: JSON.stringify(outcome ?? null) };
  }
  const prepared = outcome instanceof PreparedJson ? outcome : PreparedJson.of(outcome);
  const headers = { ...JSON_HEADERS, ...cacheHeaders(route), etag: prepared.etag };
  if (requestHeaders['if-none-match'] === prepared.etag) return { statusCode: 304, headers, body: '' };
  return { statusCode: 200, headers, body: prepared.json };
}

export function errorToResult(error: unknown): Result {
  if (error instanceof HttpError) {
    // Our own 5xx answers (e.g. "rankings are being computed") are expected states, not incidents:
    // note them without a stack so they do not drown real warnings.
    if (error.statusCode >= 500) logger.info('Answered with a server-side error', { code: error.code, reason: error.message });
    const headers: Record<string, string> = { ...JSON_HEADERS, 'cache-control': 'no-store' };
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
      headers: { ...JSON_HEADERS, 'cache-control': 'no-store', 'retry-after': '5' },
      body: JSON.stringify({
        message: 'The service is busy or briefly unavailable. Please try again in a few seconds.',
        code: 'SERVICE_UNAVAILABLE',
      }),
    };
  }
  logger.error('Unhandled error', { error: error as Error });
  return {
    statusCode: 500,
    headers: { ...JSON_HEADERS, 'cache-control': 'no-store' },
    body: JSON.stringify({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }),
  };
}

/**
 * The request pipeline every HTTP endpoint shares (DESIGN.md section 4): headers normalised,
 * caller resolved, access checked, input validated, then the handler; errors mapped last.
 */
export function createHandler<R extends RouteDefinition>(
  route: R,
  handle: (input: HandlerInput<R>) => Promise<HandlerResult<R>>,
) {
  const config = getConfig();

  const pipeline: middy.MiddlewareObj<APIGatewayProxyEventV2, Result, Error, Context> = {
    before: async (request) => {
      const headers = lowerCaseHeaders(request.event.headers);
      checkStateChangingRequest(request.event.requestContext.http.method, headers, config.allowedOrigins);
      const caller = await resolveCaller(request.event, headers);
      checkAccess(route, caller);
      requestState.set(request.event, { headers, caller });
    },
  };

  const errorHandler: middy.MiddlewareObj<APIGatewayProxyEventV2, Result, Error, Context> = {
    onError: async (request) => {
      request.response = errorToResult(request.error);
    },
  };

  return middy<APIGatewayProxyEventV2, Result, Error, Context>()
    .use(injectLambdaContext(logger))
    .use(
      httpCors({
        origins: [...config.allowedOrigins],
        credentials: true,
        headers: CORS_ALLOWED_HEADERS.join(','),
        exposeHeaders: 'etag,retry-after',
        maxAge: 600,
      }),
    )
    .use(pipeline)
    .use(errorHandler)
    .handler(async (event) => {
      const state = requestState.get(event);
      if (!state) throw new Error('Request pipeline did not run before the handler');
      const input = parseInput(route, event, state.headers) as Pick<HandlerInput<R>, 'params' | 'query' | 'body'>;
      const outcome = await handle({ ...input, caller: state.caller, headers: state.headers, event });
      return toResult(route, outcome, state.headers);
    });
}
