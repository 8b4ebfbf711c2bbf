import * as z from '../zod';
import { type Capabilities, type CapabilityDeclaration, capabilitiesOf } from '../capabilities';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route.
 * - public: anyone, signed in or not.
 * - user: a signed-in user (401 otherwise); superusers are users too.
 * - app: a server-side app authenticated with its app id and private token.
 * - superuser: a signed-in superuser only.
 * A route open to several of the signed-in levels lists them, e.g. ['app', 'superuser'].
 */
export type AccessLevel = 'public' | 'user' | 'app' | 'superuser';
export type SignedInLevel = Exclude<AccessLevel, 'public'>;
export type Access = AccessLevel | readonly [SignedInLevel, ...SignedInLevel[]];

export function accessLevels(access: Access): readonly AccessLevel[] {
  return typeof access === 'string' ? [access] : access;
}

export interface RouteDefinition<
  P extends z.ZodMiniType = z.ZodMiniType,
  Q extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
  R extends z.ZodMiniType = z.ZodMiniType,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
  A extends Access = Access,
> {
  method: M;
  /** Full path as the browser calls it, with `{name}` parameters. */
  path: Path;
  access: A;
  /** File under functions/ (without extension) that exports `handler`. */
  handler: string;
  summary: string;
  params: P;
  query: Q;
  body: B;
  response: R;
  /** What the route's function may do: its grants and environment in AWS, enforced locally too. */
  capabilities: Capabilities;
  /**
   * Changes state, so it needs the application-id header (which forces a CORS preflight) and an
   * allowed Origin, whatever its method. Defaults to every method but GET.
   */
  stateChanging: boolean;
  /** Seconds a browser or CloudFront may reuse the answer; absent means never. */
  cacheSeconds?: number;
  /**
   * Also takes an HTML form's body (application/x-www-form-urlencoded), read as an object of
   * strings: for callers that cannot send JSON, such as a mail client's one-click unsubscribe.
   */
  acceptsFormBody?: boolean;
  /**
   * With acceptsFormBody, also takes a form sent as text/plain: navigator.sendBeacon sends a
   * string body so, and a page being left can send nothing else.
   */
  acceptsBeaconBody?: boolean;
  /** Extra Lambda memory for heavier routes. */
  memoryMb?: number;
  /**
   * Seconds the route's Lambda may run before it is stopped (DEFAULT_ROUTE_TIMEOUT_SECONDS
   * otherwise), for routes that read the web. Under API Gateway's 29 s, which answers for it anyway.
   */
  timeoutSeconds?: number;
}

/** How long a route's Lambda may run, unless its route says otherwise: the local runtime stops it at the same time. */
export const DEFAULT_ROUTE_TIMEOUT_SECONDS = 10;

export const noParams = z.strictObject({});
export const noQuery = z.strictObject({});
export const noBody = z.undefined();

type Defaults = { params: typeof noParams; query: typeof noQuery; body: typeof noBody };

/**
 * Method, path and access keep their literal types, so handlers get the caller their access
 * level guarantees and the web client can be checked against the table. Capabilities default
 * to table reads for GET and table writes otherwise; anything more is declared.
 */
export function defineRoute<
  const M extends HttpMethod,
  const Path extends string,
  const A extends Access,
  P extends z.ZodMiniType = Defaults['params'],
  Q extends z.ZodMiniType = Defaults['query'],
  B extends z.ZodMiniType = Defaults['body'],
  R extends z.ZodMiniType = z.ZodMiniType,
>(
  route: Omit<RouteDefinition<P, Q, B, R, M, Path, A>, 'params' | 'query' | 'body' | 'capabilities' | 'stateChanging'> & {
    params?: P;
    query?: Q;
    body?: B;
    capabilities?: CapabilityDeclaration;
    stateChanging?: boolean;
  },
): RouteDefinition<P, Q, B, R, M, Path, A> {
  const { capabilities, stateChanging, ...rest } = route;
  return {
    ...rest,
    params: (route.params ?? noParams) as P,
    query: (route.query ?? noQuery) as Q,
    body: (route.body ?? noBody) as B,
    capabilities: capabilitiesOf(capabilities ?? {}, { table: route.method === 'GET' ? 'read' : 'read-write' }),
    stateChanging: stateChanging ?? route.method !== 'GET',
  };
}

/**
 * The response of a route that answers with a redirect (OAuth callbacks, single sign-on): no
 * JSON body, a Location header instead.
 */
export const redirectResponse = z.undefined();

/** Whether a route answers with a redirect rather than a JSON body. */
export function isRedirectRoute(route: RouteDefinition): boolean {
  return route.response === redirectResponse;
}

/** Names of the `{param}` segments of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] as string);
}

export type ParamsOf<R extends RouteDefinition> = z.infer<R['params']>;
export type QueryOf<R extends RouteDefinition> = z.input<R['query']>;
export type BodyOf<R extends RouteDefinition> = z.input<R['body']>;
export type ResponseOf<R extends RouteDefinition> = z.infer<R['response']>;
