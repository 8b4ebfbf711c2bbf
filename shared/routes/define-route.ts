import * as z from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route.
 * - public: anyone, signed in or not.
 * - user: a signed-in user (401 otherwise).
 * - app: a server-side app authenticated with its app id and private token, or a superuser.
 * - superuser: a signed-in superuser only.
 */
export type Access = 'public' | 'user' | 'app' | 'superuser';

export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
> {
  method: M;
  /** Full path as the browser calls it, with `{name}` parameters. */
  path: Path;
  access: Access;
  /** File under functions/ (without extension) that exports `handler`. */
  handler: string;
  summary: string;
  params: P;
  query: Q;
  body: B;
  response: R;
  /** Whether the handler writes to the table; read-only routes get read-only grants. */
  writes: boolean;
  /** Seconds a browser or CloudFront may reuse the answer; absent means never. */
  cacheSeconds?: number;
  /** Extra Lambda memory for heavier routes. */
  memoryMb?: number;
  /** Sends email through SES: only these functions get the send permission. */
  sendsEmail?: boolean;
}

export const noParams = z.object({}).strict();
export const noQuery = z.object({}).strict();
export const noBody = z.undefined();

type Defaults = { params: typeof noParams; query: typeof noQuery; body: typeof noBody };

/** Method and path keep their literal types, so the web client can be checked against them. */
export function defineRoute<
  const M extends HttpMethod,
  const Path extends string,
  P extends z.ZodType = Defaults['params'],
  Q extends z.ZodType = Defaults['query'],
  B extends z.ZodType = Defaults['body'],
  R extends z.ZodType = z.ZodType,
>(
  route: Omit<RouteDefinition<P, Q, B, R, M, Path>, 'params' | 'query' | 'body' | 'writes'> & {
    params?: P;
    query?: Q;
    body?: B;
    writes?: boolean;
  },
): RouteDefinition<P, Q, B, R, M, Path> {
  return {
    ...route,
    params: (route.params ?? noParams) as P,
    query: (route.query ?? noQuery) as Q,
    body: (route.body ?? noBody) as B,
    writes: route.writes ?? route.method !== 'GET',
  };
}

/** Names of the `{param}` segments of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] as string);
}

export type ParamsOf<R extends RouteDefinition> = z.infer<R['params']>;
export type QueryOf<R extends RouteDefinition> = z.input<R['query']>;
export type BodyOf<R extends RouteDefinition> = z.input<R['body']>;
export type ResponseOf<R extends RouteDefinition> = z.infer<R['response']>;
