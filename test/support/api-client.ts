import { expect } from 'vitest';
import type * as z from '../../shared/zod';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { registerAppClient } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { APP_TOKEN_HEADER, APPLICATION_ID_HEADER, SESSION_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';
import { type BodyOf, type ParamsOf, type QueryOf, type ResponseOf, type RouteDefinition, routes } from '../../shared/routes';
import { type ErrorBody, errorBodySchema } from '../../shared/schemas/common';
import { uniqueEmail, uniqueName } from './unique';

/** The session cookie as the API sets it; group 1 is the token. */
export const SESSION_COOKIE = /^ssoat=([^;]+); Path=\/; HttpOnly; Secure; SameSite=Lax/;
/** The page-readable hint set beside the session cookie (not HttpOnly, nothing secret in it). */
export const SIGNED_IN_HINT = /^ssoh=1; Path=\/; Secure; SameSite=Lax; Max-Age=\d+/;
/** What ends a browser session: the session cookie and its hint, both expired. */
export const clearedSessionCookies = () => [
  expect.stringMatching(/^ssoat=; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=0/),
  expect.stringMatching(/^ssoh=; Path=\/; Secure; SameSite=Lax; Max-Age=0/),
];

/** Anything holding a session token: a signed-in user, or a session a test made itself. */
export interface Session {
  token: string;
}

export interface SignedInUser extends Session {
  userId: string;
  username: string;
  email: string;
  isNewAccount: boolean;
  isSuperUser: boolean;
}

/** A registered server-side app: it calls with its id and private token instead of a session. */
export interface AppCredentials {
  appId: string;
  appToken: string;
}

export type Caller = Session | AppCredentials;

export interface CallOptions<R extends RouteDefinition> {
  params?: ParamsOf<R>;
  query?: QueryOf<R>;
  body?: BodyOf<R>;
  /** Sent exactly as written, as JSON: for malformed or oversized bodies. */
  rawBody?: string;
  /** The session (as the ssoat cookie) or the app credentials to call with. */
  as?: Caller;
  /** Extra request headers; a header set to undefined is not sent at all. */
  headers?: Record<string, string | undefined>;
}

interface AnswerBase {
  status: number;
  headers: Headers;
  /** Every Set-Cookie of the answer, as sent. */
  cookies: string[];
  /** The Location header: set on every redirect. */
  location: string | null;
  /** The body as received, for checks on what an answer must never contain. */
  text: string;
}

/**
 * A 2xx (or, for a redirect route, a 3xx) answer. The body has passed the route's response
 * schema but is the JSON as sent, not the parsed copy: zod drops fields a schema does not name,
 * and a test must still see a field that should not be there (a leaked email, say).
 */
export interface OkAnswer<R extends RouteDefinition> extends AnswerBase {
  ok: true;
  body: ResponseOf<R>;
}

/** Any other answer: the API's error shape. */
export interface ErrorAnswer extends AnswerBase {
  ok: false;
  body: ErrorBody;
}

export type Answer<R extends RouteDefinition> = OkAnswer<R> | ErrorAnswer;

export interface RecordedAnswer {
  route: RouteDefinition;
  url: string;
  as: Caller | undefined;
  status: number;
  text: string;
}

/** A schema that accepts nothing but undefined: a route without a body, or an answer without one. */
function acceptsOnlyUndefined(schema: z.ZodMiniType): boolean {
  return schema.safeParse(undefined).success && !schema.safeParse({}).success;
}

/** Routes that answer with a redirect (the browser navigates to them) instead of JSON. */
export const isRedirectRoute = (route: RouteDefinition): boolean => acceptsOnlyUndefined(route.response);
/** Routes that take no request body at all. */
export const takesNoBody = (route: RouteDefinition): boolean => acceptsOnlyUndefined(route.body);

const ROUTE_NAMES = new Map<RouteDefinition, string>(Object.entries(routes).map(([name, route]) => [route, name]));
export const describeRoute = (route: RouteDefinition): string =>
  `${route.method} ${route.path}${ROUTE_NAMES.has(route) ? ` (${ROUTE_NAMES.get(route)})` : ''}`;

const isAppCredentials = (caller: Caller): caller is AppCredentials => 'appToken' in caller;

/** The path with its {params} filled in, URL-encoded, and the query as the web client sends it. */
export function buildPath(
  route: RouteDefinition,
  params: Record<string, unknown> = {},
  query: Record<string, unknown> = {},
): string {
  const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${describeRoute(route)}: missing path parameter '${name}'`);
    // As a browser's URL parser does: a lone surrogate becomes U+FFFD instead of failing to encode.
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return encodeURIComponent(text.replace(/\p{Surrogate}/gu, '\uFFFD'));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    // Arrays and objects travel as JSON, as the web client sends them.
    search.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

function requestHeaders<R extends RouteDefinition>(route: R, options: CallOptions<R>, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string | undefined> = {};
  // Like the web app, every fetch names the app; a redirect route is a browser navigation, which cannot.
  if (!isRedirectRoute(route)) headers[APPLICATION_ID_HEADER] = WEB_APPLICATION_ID;
  if (hasBody) headers['content-type'] = 'application/json';
  const cookies: string[] = [];
  if (options.as && isAppCredentials(options.as)) {
    headers[APPLICATION_ID_HEADER] = options.as.appId;
    headers[APP_TOKEN_HEADER] = options.as.appToken;
  } else if (options.as) {
    cookies.push(`${SESSION_HEADER}=${options.as.token}`);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.toLowerCase() === 'cookie' && value !== undefined) cookies.unshift(value);
    else headers[name.toLowerCase()] = value;
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function parseJson(text: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Fails the test with the route named, the status and (the start of) the body. */
function fail(route: RouteDefinition, status: number, problem: string, text: string): never {
  throw new Error(`${describeRoute(route)} answered ${status}: ${problem}\nBody: ${text.slice(0, 2_000) || '(empty)'}`);
}

function toAnswer<R extends RouteDefinition>(route: R, response: Response, text: string): Answer<R> {
  const base: AnswerBase = {
    status: response.status,
    headers: response.headers,
    cookies: response.headers.getSetCookie(),
    location: response.headers.get('location'),
    text,
  };
  const { status } = response;
  const redirect = isRedirectRoute(route);
  if (status >= 200 && status < 300) {
    if (redirect) fail(route, status, 'a redirect route must answer with a 3xx and a Location', text);
    // A document route (a sitemap) answers text whose schema is a string.
    if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) {
      if (!route.response.safeParse(text).success) fail(route, status, 'the body is not JSON', text);
      return { ...base, ok: true, body: text as ResponseOf<R> };
    }
    const parsed = parseJson(text);
    if (!parsed) fail(route, status, 'the body is not JSON', text);
    const checked = route.response.safeParse(parsed.json);
    if (!checked.success) {
      const issues = checked.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`).join('\n');
      fail(route, status, `the body does not match the route's response schema:\n${issues}`, text);
    }
    return { ...base, ok: true, body: parsed.json as ResponseOf<R> };
  }
  if (status >= 300 && status < 400) {
    if (!redirect) fail(route, status, 'only redirect routes may answer with a 3xx', text);
    if (!base.location) fail(route, status, 'a redirect without a Location header', text);
    return { ...base, ok: true, body: undefined as ResponseOf<R> };
  }
  // A page route's refusal is a page too (a 404 page for a profile that does not exist).
  const contentType = response.headers.get('content-type') ?? '';
  if (route.response.safeParse(text).success && contentType.startsWith('text/html') && text.length > 0) {
    return { ...base, ok: false, body: { message: `a ${status} page`, code: 'PAGE' } };
  }
  const parsed = parseJson(text);
  if (!parsed) fail(route, status, 'an error answer must be JSON', text);
  const checked = errorBodySchema.safeParse(parsed.json);
  if (!checked.success) fail(route, status, 'an error answer must be JSON with a string message and code', text);
  return { ...base, ok: false, body: parsed.json as ErrorBody };
}

/**
 * A test's way to call the API on a running local runtime, typed by the route table: the
 * params, query and body are the route's own types, and every answer is checked against the
 * route's response schema (success) or the API's error shape (failure).
 */
export function createApiClient(runtime: { url: string }, options: { onAnswer?: (answer: RecordedAnswer) => void } = {}) {
  async function call<R extends RouteDefinition>(route: R, callOptions: CallOptions<R> = {}): Promise<Answer<R>> {
    const url = `${runtime.url}${buildPath(route, callOptions.params as Record<string, unknown>, callOptions.query as Record<string, unknown>)}`;
    const payload = callOptions.rawBody ?? (callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body));
    const response = await fetch(url, {
      method: route.method,
      headers: requestHeaders(route, callOptions, payload !== undefined),
      redirect: 'manual',
      ...(payload === undefined ? {} : { body: payload }),
    });
    const text = await response.text();
    options.onAnswer?.({ route, url, as: callOptions.as, status: response.status, text });
    return toAnswer(route, response, text);
  }

  /**
   * A user signed in for real: a login link straight from the issuer (no email, no cooldown),
   * spent at the confirm endpoint. A new address makes a new account; `email` signs an
   * existing account in again, with a new session.
   */
  async function signIn(label = 'user', signInOptions: { email?: string; superuser?: boolean } = {}): Promise<SignedInUser> {
    const email = signInOptions.email ?? uniqueEmail(label);
    const { token: linkToken } = await issueLoginLink(getDb(), { email });
    const login = await call(routes.confirmLoginEmail, { body: { token: linkToken } });
    if (!login.ok) throw new Error(`Login of ${email} failed with ${login.status}: ${login.text}`);
    const token = sessionTokenOf(login);
    if (!token) throw new Error(`No session cookie in the login answer: ${login.cookies.join(' | ')}`);
    const { user, isNewAccount } = login.body;
    if (signInOptions.superuser) await makeSuperUser(user);
    return {
      token,
      userId: user.userId,
      username: user.username,
      email,
      isNewAccount,
      isSuperUser: signInOptions.superuser === true || user.isSuperUser,
    };
  }

  return { call, signIn, makeSuperUser, registerApp };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Superusers are made by hand in the table: no endpoint grants the flag. */
export async function makeSuperUser(user: { userId: string }): Promise<void> {
  await getDb().entities.user.patch({ userId: user.userId }).set({ isSuperUser: true }).go();
}

/**
 * A freshly registered server-side app, in the table the runtime uses; `origins` are where it
 * receives single sign-on codes.
 */
export async function registerApp(label = 'it-app', origins: readonly string[] = []): Promise<AppCredentials> {
  const appId = uniqueName(label);
  return { appId, appToken: await registerAppClient(appId, `Integration test app ${label}`, origins) };
}

/** The id of the user a session token belongs to (it must be a live one). */
export async function userIdOf(api: ApiClient, sessionToken: string | undefined): Promise<string> {
  const current = await api.call(routes.getMe, { as: { token: sessionToken ?? '' } });
  expectOk(current);
  return current.body.userId;
}

/** The session token an answer sets as its cookie, if any. */
export function sessionTokenOf(answer: { cookies: readonly string[] }): string | undefined {
  return answer.cookies.map((cookie) => SESSION_COOKIE.exec(cookie)?.[1]).find((token) => token !== undefined);
}

/**
 * Input a test sends on purpose although the route's types refuse it (a wrong enum value, an
 * unknown field): the server's validation is what is being tested.
 */
export function invalid(value: unknown): never {
  return value as never;
}

/** Asserts a successful answer (200 unless told), showing the body when it is not; narrows the type. */
export function expectOk<A extends Answer<RouteDefinition>>(answer: A, status = 200): asserts answer is Extract<A, { ok: true }> {
  expect(answer.status, `expected ${status}, got ${answer.status}: ${answer.text.slice(0, 500)}`).toBe(status);
  expect(answer.ok).toBe(true);
}

/** Asserts an error answer with this status (and code, when given); narrows the type. */
export function expectError<A extends Answer<RouteDefinition>>(
  answer: A,
  status: number,
  code?: string,
): asserts answer is Extract<A, { ok: false }> {
  expect(answer.status, `expected ${status}, got ${answer.status}: ${answer.text.slice(0, 500)}`).toBe(status);
  expect(answer.ok).toBe(false);
  if (code !== undefined) expect((answer.body as ErrorBody).code).toBe(code);
}
