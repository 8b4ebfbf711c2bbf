import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import * as z from '../../shared/zod';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { defineRoute, type RouteDefinition } from '../../shared/routes/define-route';
import {
  Conflict,
  type HttpError,
  isDependencyUnavailable,
  NotFound,
  RateLimited,
  ValidationFailed,
} from '../../functions/lib/errors';
import type { HandlerInput, HandlerResult } from '../../functions/lib/http/create-handler';
import type { UserCaller } from '../../functions/lib/http/caller';
import { ensureTable } from '../../infra/local/dynamodb-local';
// Type-only: the modules themselves are imported in beforeAll, once the environment is set.
import type * as AppAuthModule from '../../functions/lib/app-auth';
import type * as DbClientModule from '../../functions/lib/db/client';
import type * as DbServiceModule from '../../functions/lib/db/service';
import type * as CallerTypes from '../../functions/lib/http/caller';
import type * as PipelineModule from '../../functions/lib/http/create-handler';

const ORIGIN = 'https://app.example.com';
const APP_ID = 'pipeline-test-app';

type Pipeline = typeof PipelineModule;
type CallerModule = typeof CallerTypes;
type AppAuth = typeof AppAuthModule;
type DbService = typeof DbServiceModule;
type DbClient = typeof DbClientModule;

// Loaded after the environment is set, because getConfig() reads it once.
let pipeline: Pipeline;
let callerModule: CallerModule;
let appAuth: AppAuth;
let dbService: DbService;
let dbClient: DbClient;
let appToken: string;
let tableName: string;

const context: Context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'pipeline-test',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:pipeline-test',
  memoryLimitInMB: '128',
  awsRequestId: 'request-1',
  logGroupName: '/aws/lambda/pipeline-test',
  logStreamName: 'stream',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
};

interface EventOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: string;
  cookies?: string[];
}

function buildEvent(options: EventOptions = {}): APIGatewayProxyEventV2 {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/api/test';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: options.headers ?? {},
    ...(options.query ? { queryStringParameters: options.query } : {}),
    ...(options.params ? { pathParameters: options.params } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.cookies ? { cookies: options.cookies } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'vitest' },
      requestId: randomUUID(),
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '01/Jan/2024:00:00:00 +0000',
      timeEpoch: 1_704_067_200_000,
    },
  };
}

type Invoke = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

function handlerFor<R extends RouteDefinition>(route: R, handle: (input: HandlerInput<R>) => Promise<HandlerResult<R>>): Invoke {
  const handler = pipeline.createHandler(route, handle);
  return (event) => handler(event, context) as Promise<APIGatewayProxyStructuredResultV2>;
}

function header(result: APIGatewayProxyStructuredResultV2, name: string): string | undefined {
  const entry = Object.entries(result.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase());
  return entry === undefined ? undefined : String(entry[1]);
}

function bodyOf(result: APIGatewayProxyStructuredResultV2): Record<string, unknown> {
  return JSON.parse(result.body ?? '') as Record<string, unknown>;
}

const echoRoute = defineRoute({
  method: 'GET',
  path: '/api/test/echo/{id}',
  access: 'public',
  handler: 'test/echo',
  summary: 'Echoes its validated input.',
  params: z.strictObject({ id: z.string().check(z.minLength(2)) }),
  query: z.strictObject({ n: z.coerce.number().check(z.int(), z.minimum(1)) }),
  response: z.unknown(),
});

const cachedRoute = defineRoute({
  method: 'GET',
  path: '/api/test/cached',
  access: 'public',
  handler: 'test/cached',
  summary: 'A cacheable answer.',
  response: z.unknown(),
  cacheSeconds: 60,
});

const createRoute = defineRoute({
  method: 'POST',
  path: '/api/test/things',
  access: 'public',
  handler: 'test/create',
  summary: 'Takes a JSON body.',
  body: z.strictObject({ name: z.string().check(z.minLength(1)), count: z.int() }),
  response: z.unknown(),
});

const userRoute = defineRoute({
  method: 'GET',
  path: '/api/test/me',
  access: 'user',
  handler: 'test/me',
  summary: 'For signed-in users.',
  response: z.unknown(),
});

const appRoute = defineRoute({
  method: 'POST',
  path: '/api/test/app',
  access: 'app',
  handler: 'test/app',
  summary: 'For server-side apps.',
  response: z.unknown(),
});

const superRoute = defineRoute({
  method: 'POST',
  path: '/api/test/admin',
  access: 'superuser',
  handler: 'test/admin',
  summary: 'For superusers.',
  response: z.unknown(),
});

const plainRoute = defineRoute({
  method: 'GET',
  path: '/api/test/plain',
  access: 'public',
  handler: 'test/plain',
  summary: 'Anything the test throws.',
  response: z.unknown(),
});

const sessions: Record<string, UserCaller> = {
  'user-token': { kind: 'user', userId: 'u-1', sessionId: 's-1', isSuperUser: false, verifiedEmail: null },
  'super-token': { kind: 'user', userId: 'u-2', sessionId: 's-2', isSuperUser: true, verifiedEmail: null },
};

beforeAll(async () => {
  const endpoint = inject('dynamoEndpoint');
  tableName = `pipeline-${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  process.env.TABLE_NAME = tableName;
  process.env.ALLOWED_ORIGINS = ORIGIN;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  pipeline = await import('../../functions/lib/http/create-handler');
  callerModule = await import('../../functions/lib/http/caller');
  appAuth = await import('../../functions/lib/app-auth');
  dbService = await import('../../functions/lib/db/service');
  dbClient = await import('../../functions/lib/db/client');
  appToken = await appAuth.registerAppClient(APP_ID, 'Pipeline test app');
  callerModule.setSessionResolver(async (token) => {
    const caller = sessions[token];
    return caller ? { caller, tokenHash: `hash-of-${token}`, renewalDue: false } : null;
  });
});

afterAll(() => {
  callerModule?.setSessionResolver(async () => null);
});

describe('request pipeline: input', () => {
  it('answers 200 with the handler result as JSON, given validated input', async () => {
    // Prepare
    const invoke = handlerFor(echoRoute, async ({ params, query, caller }) => ({
      id: params.id,
      n: query.n,
      caller: caller.kind,
    }));

    // Act
    const result = await invoke(buildEvent({ params: { id: 'abc' }, query: { n: '3' } }));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(header(result, 'content-type')).toMatch(/^application\/json/);
    expect(bodyOf(result)).toEqual({ id: 'abc', n: 3, caller: 'anonymous' });
  });

  it('answers 400 naming every bad path parameter and query field', async () => {
    // Prepare
    let called = false;
    const invoke = handlerFor(echoRoute, async () => {
      called = true;
      return {};
    });

    // Act
    const result = await invoke(buildEvent({ params: { id: 'a' }, query: { n: 'zero', extra: '1' } }));

    // Assess
    expect(result.statusCode).toBe(400);
    const body = bodyOf(result);
    expect(body.code).toBe('VALIDATION_FAILED');
    const fields = (body.fields as { in: string; field: string }[]).map((field) => `${field.in}:${field.field}`).sort();
    expect(fields).toEqual(['params:id', 'query:extra', 'query:n']);
    expect(called).toBe(false);
  });

  it('answers 200 for a valid JSON body', async () => {
    // Prepare
    const invoke = handlerFor(createRoute, async ({ body }) => ({ created: body.name, count: body.count }));

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Application-Id': WEB_APPLICATION_ID, Origin: ORIGIN },
        body: JSON.stringify({ name: 'thing', count: 2 }),
      }),
    );

    // Assess
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ created: 'thing', count: 2 });
  });

  it('answers 400 for a bad body and rejects unknown body fields', async () => {
    // Prepare
    const invoke = handlerFor(createRoute, async () => ({}));

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-application-id': WEB_APPLICATION_ID },
        body: JSON.stringify({ name: '', count: 1.5, isAdmin: true }),
      }),
    );

    // Assess
    expect(result.statusCode).toBe(400);
    const fields = bodyOf(result).fields as { in: string; field: string; message: string }[];
    expect(fields.map((field) => `${field.in}:${field.field}`).sort()).toEqual(['body:count', 'body:isAdmin', 'body:name']);
    expect(fields.find((field) => field.field === 'isAdmin')?.message).toBe('Unknown field');
  });

  it('answers 400 with a message for malformed JSON', async () => {
    // Prepare
    const invoke = handlerFor(createRoute, async () => ({}));

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-application-id': WEB_APPLICATION_ID },
        body: '{"name": ',
      }),
    );

    // Assess
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({ message: 'The request body is not valid JSON.', code: 'BAD_REQUEST' });
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    // Prepare
    const invoke = handlerFor(createRoute, async () => ({}));

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-application-id': WEB_APPLICATION_ID },
        body: '{"name":"a","count":1}',
      }),
    );

    // Assess
    expect(result.statusCode).toBe(415);
    expect(bodyOf(result).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it("answers 400 on 'body' when a required body is missing", async () => {
    // Prepare
    const invoke = handlerFor(createRoute, async () => ({}));

    // Act
    const result = await invoke(buildEvent({ method: 'POST', headers: { 'x-application-id': WEB_APPLICATION_ID } }));

    // Assess
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).fields).toEqual([{ in: 'body', field: 'body', message: 'A JSON body is required' }]);
  });

  it('answers 400 when a body is sent to an endpoint that takes none', async () => {
    // Prepare
    const invoke = handlerFor(superRoute, async () => ({ ran: true }));

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-application-id': WEB_APPLICATION_ID, ssoat: 'super-token' },
        body: '{"a":1}',
      }),
    );

    // Assess
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).code).toBe('BAD_REQUEST');
  });
});

describe('request pipeline: state-changing requests and access', () => {
  it('refuses a POST without the x-application-id header with 403', async () => {
    // Prepare
    let called = false;
    const invoke = handlerFor(createRoute, async () => {
      called = true;
      return {};
    });

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: '{"name":"a","count":1}',
      }),
    );

    // Assess
    expect(result.statusCode).toBe(403);
    expect(bodyOf(result).code).toBe('FORBIDDEN');
    expect(called).toBe(false);
  });

  it('refuses a POST from an origin that is not allowed with 403', async () => {
    // Prepare
    const invoke = handlerFor(createRoute, async () => ({}));

    // Act
    const result = await invoke(
      buildEvent({
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-application-id': WEB_APPLICATION_ID,
          origin: 'https://evil.example.net',
        },
        body: '{"name":"a","count":1}',
      }),
    );

    // Assess
    expect(result.statusCode).toBe(403);
  });

  it('answers 401 to an anonymous caller of a user route', async () => {
    // Prepare
    const invoke = handlerFor(userRoute, async ({ caller }) => ({ caller }));

    // Act
    const anonymous = await invoke(buildEvent());
    const unknownSession = await invoke(buildEvent({ headers: { ssoat: 'no-such-token' } }));

    // Assess
    expect(anonymous.statusCode).toBe(401);
    expect(bodyOf(anonymous).code).toBe('UNAUTHORIZED');
    expect(unknownSession.statusCode).toBe(401);
  });

  it('lets a signed-in user call a user route by header or by cookie', async () => {
    // Prepare
    const invoke = handlerFor(userRoute, async ({ caller }) => ({ userId: caller.kind === 'user' ? caller.userId : null }));

    // Act
    const byHeader = await invoke(buildEvent({ headers: { ssoat: 'user-token' } }));
    const byCookie = await invoke(buildEvent({ cookies: ['theme=dark', 'ssoat=user-token'] }));

    // Assess
    expect(byHeader.statusCode).toBe(200);
    expect(bodyOf(byHeader)).toEqual({ userId: 'u-1' });
    expect(byCookie.statusCode).toBe(200);
    expect(bodyOf(byCookie)).toEqual({ userId: 'u-1' });
  });

  it('answers 401 to an app route called with a wrong app token', async () => {
    // Prepare
    const invoke = handlerFor(appRoute, async () => ({ ran: true }));

    // Act
    const wrongToken = await invoke(
      buildEvent({ method: 'POST', headers: { 'x-application-id': APP_ID, 'x-app-token': 'wrong' } }),
    );
    const unknownApp = await invoke(
      buildEvent({ method: 'POST', headers: { 'x-application-id': 'nobody', 'x-app-token': appToken } }),
    );
    const noCredentials = await invoke(buildEvent({ method: 'POST', headers: { 'x-application-id': APP_ID } }));

    // Assess
    expect(wrongToken.statusCode).toBe(401);
    expect(unknownApp.statusCode).toBe(401);
    // Naming an app without its token is refused before any lookup.
    expect(noCredentials.statusCode).toBe(403);
    expect(bodyOf(noCredentials).message).toBe(
      `Unknown x-application-id '${APP_ID}': apps other than the web app must also send their x-app-token.`,
    );
  });

  it('lets a registered app call an app route', async () => {
    // Prepare
    const invoke = handlerFor(appRoute, async ({ caller }) => ({ appId: caller.kind === 'app' ? caller.appId : null }));

    // Act
    const result = await invoke(buildEvent({ method: 'POST', headers: { 'x-application-id': APP_ID, 'x-app-token': appToken } }));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ appId: APP_ID });
  });

  it('answers 403 to a signed-in user who is not a superuser on a superuser route', async () => {
    // Prepare
    let called = false;
    const invoke = handlerFor(superRoute, async () => {
      called = true;
      return { ran: true };
    });

    // Act
    const result = await invoke(
      buildEvent({ method: 'POST', headers: { 'x-application-id': WEB_APPLICATION_ID, ssoat: 'user-token' } }),
    );

    // Assess
    expect(result.statusCode).toBe(403);
    expect(called).toBe(false);
  });

  it('lets a superuser call a superuser route', async () => {
    // Prepare
    const invoke = handlerFor(superRoute, async ({ caller }) => ({ userId: caller.kind === 'user' ? caller.userId : null }));

    // Act
    const result = await invoke(
      buildEvent({ method: 'POST', headers: { 'x-application-id': WEB_APPLICATION_ID, ssoat: 'super-token' } }),
    );

    // Assess
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ userId: 'u-2' });
  });

  it('does not let an app call a superuser route', async () => {
    // Prepare
    const invoke = handlerFor(superRoute, async () => ({ ran: true }));

    // Act
    const result = await invoke(buildEvent({ method: 'POST', headers: { 'x-application-id': APP_ID, 'x-app-token': appToken } }));

    // Assess
    expect(result.statusCode).toBe(403);
  });
});

describe('request pipeline: errors', () => {
  let dynamoMock: ReturnType<typeof mockClient> | undefined;

  afterEach(() => {
    dynamoMock?.restore();
    dynamoMock = undefined;
  });

  it('answers a plain Error with a generic 500 that leaks nothing', async () => {
    // Prepare
    const invoke = handlerFor(plainRoute, async () => {
      throw new Error('secret: table prod-users at 10.0.0.7 exploded');
    });

    // Act
    const result = await invoke(buildEvent());

    // Assess
    expect(result.statusCode).toBe(500);
    expect(bodyOf(result)).toEqual({ message: expect.any(String), code: 'INTERNAL_ERROR' });
    expect(result.body).not.toMatch(/secret|prod-users|10\.0\.0\.7|exploded|at /);
    expect(header(result, 'cache-control')).toBe('no-store');
  });

  it.each<[string, HttpError, number, Record<string, unknown>]>([
    ['NotFound', new NotFound('No publication called x.'), 404, { message: 'No publication called x.', code: 'NOT_FOUND' }],
    ['Conflict', new Conflict('That name is taken.'), 409, { message: 'That name is taken.', code: 'CONFLICT' }],
    [
      'ValidationFailed',
      new ValidationFailed([{ in: 'body', field: 'email', message: 'Invalid email' }]),
      400,
      { code: 'VALIDATION_FAILED', fields: [{ in: 'body', field: 'email', message: 'Invalid email' }] },
    ],
    [
      'RateLimited',
      new RateLimited('Slow down.', 30),
      429,
      { message: 'Slow down.', code: 'RATE_LIMITED', retryAfterSeconds: 30 },
    ],
  ])('maps %s to its status and a {message, code} body', async (_name, error, status, expected) => {
    // Prepare
    const invoke = handlerFor(plainRoute, async () => {
      throw error;
    });

    // Act
    const result = await invoke(buildEvent());

    // Assess
    expect(result.statusCode).toBe(status);
    const body = bodyOf(result);
    expect(body).toMatchObject(expected);
    expect(typeof body.message).toBe('string');
    if (error instanceof RateLimited) expect(header(result, 'retry-after')).toBe('30');
  });

  it('answers 503 with retry-after when DynamoDB throttles a read', async () => {
    // Prepare
    dynamoMock = mockClient(DynamoDBDocumentClient);
    dynamoMock.on(GetCommand).rejects(
      Object.assign(new Error('The level of configured provisioned throughput was exceeded'), {
        name: 'ProvisionedThroughputExceededException',
        $metadata: { httpStatusCode: 400 },
      }),
    );
    const invoke = handlerFor(plainRoute, async () => {
      const { data } = await dbService.getDb().entities.rankingManifest.get({ name: 'current' }).go();
      return { found: data !== null };
    });

    // Act
    const result = await invoke(buildEvent());

    // Assess
    expect(dynamoMock.commandCalls(GetCommand).length).toBeGreaterThan(0);
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result).code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(header(result, 'retry-after'))).toBeGreaterThan(0);
    expect(result.body).not.toMatch(/provisioned/i);
  });

  it('recognises an unreachable database as unavailable, and answers 503', async () => {
    // Prepare
    const client = dbClient.createDocumentClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
    const db = dbService.createDb(client, tableName);
    const invoke = handlerFor(plainRoute, async () => {
      const { data } = await db.entities.rankingManifest.get({ name: 'current' }).go();
      return { found: data !== null };
    });

    // Act
    const thrown = await client
      .send(new GetCommand({ TableName: tableName, Key: { pk: 'x', sk: 'y' } }))
      .catch((error: unknown) => error);
    const result = await invoke(buildEvent());

    // Assess
    expect(thrown).toBeInstanceOf(Error);
    expect(isDependencyUnavailable(thrown)).toBe(true);
    expect(result.statusCode).toBe(503);
    expect(header(result, 'retry-after')).toBeDefined();
    client.destroy();
  });

  it('answers 503 within its bound when the database accepts the request and never answers', async () => {
    // Prepare
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const client = dbClient.createDocumentClient({ endpoint, region: 'us-east-1', requestTimeout: 150 });
    const db = dbService.createDb(client, tableName);
    const invoke = handlerFor(plainRoute, async () => {
      const { data } = await db.entities.rankingManifest.get({ name: 'current' }).go();
      return { found: data !== null };
    });

    // Act
    const started = Date.now();
    const result = await invoke(buildEvent());
    const elapsed = Date.now() - started;

    // Assess
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result)).toEqual({
      message: 'The service is busy or briefly unavailable. Please try again in a few seconds.',
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(header(result, 'retry-after')).toBe('5');
    expect(elapsed).toBeLessThan(3_000);
    client.destroy();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('does not treat an ordinary bug as a dependency outage', () => {
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyUnavailable(Object.assign(new Error('bad'), { name: 'ValidationException' }))).toBe(false);
    expect(
      isDependencyUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })),
    ).toBe(true);
  });
});

describe('request pipeline: caching', () => {
  it('sends public max-age and an ETag on a cacheable GET', async () => {
    // Prepare
    const invoke = handlerFor(cachedRoute, async () => ({ value: 'hello' }));

    // Act
    const result = await invoke(buildEvent());

    // Assess
    expect(result.statusCode).toBe(200);
    expect(header(result, 'cache-control')).toMatch(/^public, max-age=60\b/);
    expect(header(result, 'etag')).toMatch(/^W\/".+"$/);
    expect(bodyOf(result)).toEqual({ value: 'hello' });
  });

  it('answers 304 with an empty body when If-None-Match matches, and 200 when it does not', async () => {
    // Prepare
    let value = 'first';
    const invoke = handlerFor(cachedRoute, async () => ({ value }));
    const etag = header(await invoke(buildEvent()), 'etag') as string;

    // Act
    const unchanged = await invoke(buildEvent({ headers: { 'If-None-Match': etag } }));
    value = 'second';
    const changed = await invoke(buildEvent({ headers: { 'If-None-Match': etag } }));

    // Assess
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(header(unchanged, 'etag')).toBe(etag);
    expect(changed.statusCode).toBe(200);
    expect(header(changed, 'etag')).not.toBe(etag);
    expect(bodyOf(changed)).toEqual({ value: 'second' });
  });

  it('sends no-store on routes that are not cacheable', async () => {
    // Prepare
    const getInvoke = handlerFor(echoRoute, async () => ({ ok: true }));
    const postInvoke = handlerFor(createRoute, async () => ({ ok: true }));

    // Act
    const get = await getInvoke(buildEvent({ params: { id: 'abc' }, query: { n: '1' } }));
    const post = await postInvoke(
      buildEvent({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-application-id': WEB_APPLICATION_ID },
        body: '{"name":"a","count":1}',
      }),
    );

    // Assess
    expect(get.statusCode).toBe(200);
    expect(header(get, 'cache-control')).toBe('no-store');
    expect(header(get, 'etag')).toBeUndefined();
    expect(post.statusCode).toBe(200);
    expect(header(post, 'cache-control')).toBe('no-store');
  });
});

describe('request pipeline: CORS', () => {
  it("sends no CORS header, allowed origin or not: API Gateway adds its own and ignores a function's", async () => {
    // Prepare
    const ok = handlerFor(cachedRoute, async () => ({ value: 'hello' }));
    const refused = handlerFor(userRoute, async () => ({}));

    // Act
    const answers = [
      await ok(buildEvent({ headers: { Origin: ORIGIN } })),
      await refused(buildEvent({ headers: { origin: ORIGIN } })),
      await ok(buildEvent({ headers: { origin: 'https://evil.example.net' } })),
    ];

    // Assess
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 200]);
    for (const answer of answers) {
      expect(Object.keys(answer.headers ?? {}).filter((name) => name.toLowerCase().startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('request pipeline: answers as pages would be attacked', () => {
  const logoutLikeRoute = defineRoute({
    method: 'GET',
    path: '/api/test/logout',
    access: 'public',
    handler: 'test/logout',
    summary: 'A GET that changes state.',
    response: z.object({ loggedOut: z.literal(true) }),
    capabilities: { table: 'read-write' },
    stateChanging: true,
  });

  it('refuses a state-changing GET without the application id or from a foreign origin', async () => {
    // Prepare
    let calls = 0;
    const invoke = handlerFor(logoutLikeRoute, async () => {
      calls += 1;
      return { loggedOut: true as const };
    });

    // Act
    const bare = await invoke(buildEvent({ path: '/api/test/logout' }));
    const foreign = await invoke(
      buildEvent({
        path: '/api/test/logout',
        headers: { 'x-application-id': WEB_APPLICATION_ID, origin: 'https://evil.example' },
      }),
    );
    const allowed = await invoke(
      buildEvent({ path: '/api/test/logout', headers: { 'x-application-id': WEB_APPLICATION_ID, origin: ORIGIN } }),
    );

    // Assess
    expect([bare.statusCode, foreign.statusCode, allowed.statusCode]).toEqual([403, 403, 200]);
    expect(calls).toBe(1);
  });

  it('sends nosniff, a referrer policy and no-framing on every answer, errors included', async () => {
    // Prepare
    const invoke = handlerFor(plainRoute, async () => {
      throw new NotFound('Nothing here.');
    });
    const ok = handlerFor(cachedRoute, async () => ({ fine: true }));

    // Act
    const results = [await invoke(buildEvent({ path: '/api/test/plain' })), await ok(buildEvent({ path: '/api/test/cached' }))];

    // Assess
    for (const result of results) {
      expect(header(result, 'x-content-type-options')).toBe('nosniff');
      expect(header(result, 'referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(header(result, 'x-frame-options')).toBe('DENY');
      expect(header(result, 'content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect(results.map((result) => result.statusCode)).toEqual([404, 200]);
  });
});

describe('request pipeline: metrics', () => {
  it('publishes what a handler recorded even when it then throws, and nothing for a call that recorded none', async () => {
    // Prepare
    const { metrics } = await import('../../functions/lib/logger');
    const { MetricUnit } = await import('@aws-lambda-powertools/metrics');
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    const failing = handlerFor(plainRoute, async () => {
      metrics.addMetric('Attempts', MetricUnit.Count, 1);
      throw new Conflict('Taken.');
    });
    const quiet = handlerFor(cachedRoute, async () => ({ fine: true }));

    // Act
    const failed = await failing(buildEvent({ path: '/api/test/plain' }));
    const callsAfterFailure = publish.mock.calls.length;
    await quiet(buildEvent({ path: '/api/test/cached' }));

    // Assess
    expect(failed.statusCode).toBe(409);
    expect(callsAfterFailure).toBe(1);
    expect(publish.mock.calls.length).toBe(1);
    expect(metrics.hasStoredMetrics()).toBe(false);
    publish.mockRestore();
  });
});

describe('request pipeline: the answer log line', () => {
  it("logs each answer's route, status, caller kind and API request id, for a failure too, and never a token", async () => {
    // Prepare
    const { logger } = await import('../../functions/lib/logger');
    const info = vi.spyOn(logger, 'info');
    const failing = handlerFor(plainRoute, async () => {
      throw new Conflict('Taken.');
    });
    const fine = handlerFor(cachedRoute, async () => ({ fine: true }));
    const withRequestId = (event: APIGatewayProxyEventV2, requestId: string) => ({
      ...event,
      requestContext: { ...event.requestContext, requestId },
    });

    // Act
    await failing(withRequestId(buildEvent({ path: '/api/test/plain', cookies: ['tp_session=secret-token'] }), 'api-1'));
    await fine(withRequestId(buildEvent({ path: '/api/test/cached' }), 'api-2'));

    // Assess
    const answers = info.mock.calls.filter(([message]) => message === 'Answered').map(([, fields]) => fields);
    expect(answers).toEqual([
      { route: `${plainRoute.method} ${plainRoute.path}`, status: 409, callerKind: 'anonymous', apiRequestId: 'api-1' },
      { route: `${cachedRoute.method} ${cachedRoute.path}`, status: 200, callerKind: 'anonymous', apiRequestId: 'api-2' },
    ]);
    expect(JSON.stringify(info.mock.calls)).not.toContain('secret-token');
    info.mockRestore();
  });
});

describe('request pipeline: the invocation in every log line', () => {
  it("stamps a line logged during a call with that call's Lambda request id and function", async () => {
    // Prepare
    const { logger } = await import('../../functions/lib/logger');
    const levelBefore = logger.getLevelName();
    logger.setLogLevel('INFO');
    const written = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const fine = handlerFor(cachedRoute, async () => ({ fine: true }));

    // Act
    let output: string[];
    try {
      await fine(buildEvent({ path: '/api/test/cached' }));
    } finally {
      output = written.mock.calls.map(([chunk]) => String(chunk));
      written.mockRestore();
      logger.setLogLevel(levelBefore);
    }

    // Assess
    const lines = output.filter((text) => text.includes('"Answered"'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      message: 'Answered',
      function_request_id: context.awsRequestId,
      function_name: context.functionName,
    });
  });
});
