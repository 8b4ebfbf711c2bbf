import { APPLICATION_ID_HEADER, BROWSER_WINDOW_HEADER, PAGE_URL_HEADER, WEB_APPLICATION_ID } from '@shared/constants';
import type { HttpMethod, RouteDefinition } from '@shared/routes/define-route';

/**
 * The one way the web app calls the API (its common rules: docs/api.md): JSON in and out,
 * credentials included, the app id on every call. The session travels only in the HttpOnly
 * `ssoat` cookie, which no script on the page can read, so the client never sends a session
 * header (docs/architecture.md, "Sessions").
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;
  /** Fields of the JSON error body (message, code, fields, ...), when it had one. */
  readonly body: Record<string, unknown> | undefined;

  constructor(status: number, statusText: string, body: Record<string, unknown> | undefined) {
    const serverMessage = typeof body?.message === 'string' ? body.message : undefined;
    super(serverMessage ?? (statusText || String(status)));
    this.status = status;
    this.body = body;
    this.code = typeof body?.code === 'string' ? body.code : undefined;
    if (body) Object.assign(this, { ...body, message: this.message, name: this.name, status });
  }
}

export type QueryValue = string | number | boolean | null | undefined | readonly unknown[] | Record<string, unknown>;

export interface RequestOptions {
  params?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

/** API base: same origin by default; VITE_API_BASE points a dev build elsewhere. */
const API_BASE = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';

export function buildUrl(path: string, options: Pick<RequestOptions, 'params' | 'query'> = {}, base = API_BASE): string {
  const filled = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = options.params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter '${name}' for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value === undefined || value === null) continue;
    // Arrays and objects travel as JSON (e.g. userIds=["a","b"]), as the spec's callers expect.
    search.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const query = search.toString();
  return `${base}${filled}${query ? `?${query}` : ''}`;
}

/**
 * Browsers keep at most 64 KiB of keepalive bodies in flight per page and refuse the request past
 * that: 8 Ki characters is at most 24 KiB of UTF-8, so a few at once still fit.
 */
const KEEPALIVE_BODY_CHARACTERS = 8 * 1024;

/**
 * A change the user made (a like, a follow) is sent with keepalive so that leaving the page right
 * after the click does not cancel it: the button already turned, so a lost request would be a
 * silent lie. Same-origin only (a cross-origin keepalive request with a preflight is refused by
 * some browsers) and small bodies only (the browser's keepalive quota).
 */
function outlivesThePage(method: HttpMethod, body: string | undefined): boolean {
  return method !== 'GET' && API_BASE === '' && (body === undefined || body.length <= KEEPALIVE_BODY_CHARACTERS);
}

export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID,
  };
  if (typeof window !== 'undefined') {
    headers[PAGE_URL_HEADER] = window.location.href;
    headers[BROWSER_WINDOW_HEADER] = 'true';
  }

  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const response = await fetch(buildUrl(path, options), {
    method,
    headers,
    credentials: 'include',
    ...(body === undefined ? {} : { body }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(outlivesThePage(method, body) ? { keepalive: true } : {}),
  });
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  if (!response.ok) {
    let body: Record<string, unknown> | undefined;
    if (isJson) body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    throw new ApiError(response.status, response.statusText, body);
  }
  if (response.status === 204) return undefined as T;
  return (isJson ? await response.json() : await response.text()) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, options?: RequestOptions) => apiRequest<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) => apiRequest<T>('PUT', path, options),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

/**
 * A typed caller for one route-table entry. The method and path must be the table's own
 * (their literal types are checked), while zod stays out of the browser bundle: only types
 * are imported from the table.
 */
export function endpoint<R extends RouteDefinition>(method: R['method'], path: R['path']) {
  type Output<S> = S extends { _zod: { output: infer O } } ? O : never;
  type Input<S> = S extends { _zod: { input: infer I } } ? I : never;
  return (
    options: {
      params?: Output<R['params']>;
      query?: Input<R['query']>;
      body?: Input<R['body']>;
      signal?: AbortSignal;
    } = {},
  ) => apiRequest<Output<R['response']>>(method, path, options as RequestOptions);
}
