import { vi } from 'vitest';
import { type ParamsOf, pathParamNames, type ResponseOf, type RouteDefinition } from '@shared/routes';
import { errorBodySchema } from '@shared/schemas/common';

/** A request the stubbed fetch received. */
export interface StubbedRequest {
  method: string;
  url: URL;
  /** The path parameters, decoded, when the request matched a route. */
  params: Record<string, string>;
  body: unknown;
}

/** The API's error shape, with the extra fields it may carry. */
export interface StubErrorBody {
  message: string;
  code: string;
  fields?: { in: string; field: string; message: string }[];
  retryAfterSeconds?: number;
}

/** What a stubbed route answers: its own response type on success, the API's error shape otherwise. */
export type StubReply<R extends RouteDefinition> =
  { status?: number; body: ResponseOf<R> } | { status: number; body: StubErrorBody };

/** A reply now, or later (a promise the test settles, or rejects as a network failure would). */
export type StubResult<R extends RouteDefinition> = StubReply<R> | Promise<StubReply<R>>;

/** A fixed reply, or one made per request; a function may answer undefined to leave the request to later stubs. */
export type StubAnswer<R extends RouteDefinition> = StubResult<R> | ((request: StubbedRequest) => StubResult<R> | undefined);

export interface RouteStub {
  route: RouteDefinition;
  answer: StubAnswer<RouteDefinition>;
  params: Record<string, string>;
}

/**
 * One route of the table and its answer, typed by the route's response; with `params`, only
 * requests with those path parameters (other requests go on to later stubs).
 */
export function stubRoute<R extends RouteDefinition>(
  route: R,
  answer: StubAnswer<NoInfer<R>>,
  params: StubParams<R> = {},
): RouteStub {
  return { route, answer: answer as StubAnswer<RouteDefinition>, params: params as Record<string, string> };
}

type StubParams<R extends RouteDefinition> = Partial<Record<keyof ParamsOf<R> & string, string>>;

function pattern(route: RouteDefinition): RegExp {
  const escaped = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, '([^/]+)');
  return new RegExp(`^${escaped}$`);
}

/** The path parameters when the request is this route's method and path, otherwise undefined. */
function match(route: RouteDefinition, method: string, url: URL): Record<string, string> | undefined {
  if (route.method !== method) return undefined;
  const found = pattern(route).exec(url.pathname);
  if (!found) return undefined;
  return Object.fromEntries(pathParamNames(route.path).map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]));
}

/**
 * Checks a stub's reply as the API would send it: a success must match the route's response
 * schema, so fixtures cannot drift from what the server answers; an error must carry a message and a code.
 */
function checkReply(route: RouteDefinition, reply: StubReply<RouteDefinition>): void {
  const status = reply.status ?? 200;
  const checked = status < 300 ? route.response.safeParse(reply.body) : errorBodySchema.safeParse(reply.body);
  if (checked.success) return;
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  throw new Error(`The stub of ${route.method} ${route.path} answers ${status} with a body the API would not send: ${issues}`);
}

/**
 * Stubs fetch with answers keyed by route-table entries: a request is answered by the first stub
 * whose method and path it matches (404 when none does) and is recorded either way.
 */
export function stubRoutes(...stubs: RouteStub[]) {
  const requests: StubbedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    let reply: StubReply<RouteDefinition> | undefined;
    let params: Record<string, string> = {};
    for (const stub of stubs) {
      const matched = match(stub.route, method, url);
      if (!matched || !Object.entries(stub.params).every(([name, value]) => matched[name] === value)) continue;
      const request: StubbedRequest = { method, url, params: matched, body };
      const answer = typeof stub.answer === 'function' ? stub.answer(request) : stub.answer;
      params = matched;
      if (answer === undefined) continue;
      requests.push(request);
      reply = await answer;
      checkReply(stub.route, reply);
      break;
    }
    if (!reply) {
      requests.push({ method, url, params, body });
      reply = { status: 404, body: { message: `No stub for ${method} ${url.pathname}`, code: 'NOT_FOUND' } };
    }
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    /** The requests made to one route, optionally only those with these path parameters. */
    calls: (route: RouteDefinition, params: Record<string, string> = {}) =>
      requests.filter((request) => {
        const matched = match(route, request.method, request.url);
        return matched !== undefined && Object.entries(params).every(([name, value]) => matched[name] === value);
      }),
  };
}

export type StubbedApi = ReturnType<typeof stubRoutes>;
