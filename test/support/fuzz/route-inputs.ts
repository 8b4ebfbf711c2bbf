import * as fc from 'fast-check';
import { type RouteDefinition, pathParamNames } from '../../../shared/routes';
import { takesNoBody } from '../api-client';
import { type ArbitraryOptions, arbitraryFromSchema, type JsonSchema, jsonSchemaOf, type KnownValues } from './schema-arbitrary';

/** One request to a route, as the API client sends it. */
export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

const schemas = new WeakMap<RouteDefinition, { params: JsonSchema; query: JsonSchema; body: JsonSchema }>();

function schemasOf(route: RouteDefinition) {
  let found = schemas.get(route);
  if (!found) {
    found = { params: jsonSchemaOf(route.params), query: jsonSchemaOf(route.query), body: jsonSchemaOf(route.body) };
    schemas.set(route, found);
  }
  return found;
}

/**
 * Requests for a route made from its own schemas. Path parameters are always present (a path
 * cannot lose one), but with `hostile` their values, the query and the body may be anything.
 */
export function routeInputArbitrary(route: RouteDefinition, options: ArbitraryOptions): fc.Arbitrary<RouteInput> {
  const { params, query, body } = schemasOf(route);
  const paramShape = Object.fromEntries(
    pathParamNames(route.path).map((name) => [name, arbitraryFromSchema(params.properties?.[name] ?? {}, options, name)]),
  );
  const noBody = takesNoBody(route);
  // A browser cannot send a GET with a body at all.
  const bodyless = route.method === 'GET';
  return fc.record({
    params: fc.record(paramShape),
    query: arbitraryFromSchema(query, options).map((value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { q: value },
    ),
    body: bodyless
      ? fc.constant(undefined)
      : noBody
        ? options.hostile
          ? fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined, freq: 3 })
          : fc.constant(undefined)
        : arbitraryFromSchema(body, options),
  });
}

/**
 * Every way to address a route with the values we know (another user's ids, say): one input per
 * combination of known path parameters and required query fields, at most `limit`. Parameters
 * with no known value take their schema's first enum value; a route with a parameter neither
 * gives is left out (an empty list).
 */
export function knownAddressings(route: RouteDefinition, known: KnownValues, limit = 12): Omit<RouteInput, 'body'>[] {
  const { params, query } = schemasOf(route);
  const choicesFor = (schema: JsonSchema | undefined, name: string): readonly unknown[] => {
    const values = known.get(name);
    if (values && values.length > 0) return values.filter((value) => fitsString(schema, value));
    if (schema?.enum && schema.enum.length > 0) return [schema.enum[0]];
    return [];
  };
  const dimensions: { part: 'params' | 'query'; name: string; choices: readonly unknown[] }[] = [
    ...pathParamNames(route.path).map((name) => ({
      part: 'params' as const,
      name,
      choices: choicesFor(params.properties?.[name], name),
    })),
    ...(query.required ?? []).map((name) => ({
      part: 'query' as const,
      name,
      choices: choicesFor(query.properties?.[name], name),
    })),
  ];
  if (dimensions.some((dimension) => dimension.choices.length === 0)) return [];
  let addressings: Omit<RouteInput, 'body'>[] = [{ params: {}, query: {} }];
  for (const { part, name, choices } of dimensions) {
    addressings = addressings.flatMap((partial) =>
      choices.map((choice) => ({ ...partial, [part]: { ...partial[part], [name]: choice } })),
    );
  }
  return addressings.slice(0, limit);
}

function fitsString(schema: JsonSchema | undefined, value: string): boolean {
  if (!schema) return true;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return false;
  return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
}

const NAME_KEYS = /^(username|handle)$/;

/** Strings under an id-like key anywhere in a JSON answer, by key: what a client learns it can address. */
export function collectKnownValues(json: unknown, into: Map<string, string[]>): void {
  if (Array.isArray(json)) {
    for (const item of json) collectKnownValues(item, into);
    return;
  }
  if (json === null || typeof json !== 'object') return;
  for (const [key, value] of Object.entries(json)) {
    if (typeof value === 'string' && /^(id|slug|username|handle)$|Id$/.test(key)) {
      const values = into.get(key) ?? [];
      if (!values.includes(value)) values.push(value);
      // Names begin with what the suite named their owner (fuzzadmin…, fuzzowner…), and end with
      // random characters: in name order, the fuzz picks the same person's name in every run,
      // where the order answers list them in follows random ids. The table units a route is
      // held to (docs/route-costs.json) depend on it: a profile update that takes someone
      // else's username is refused (409), one that keeps one's own succeeds and changes what
      // later routes read.
      if (NAME_KEYS.test(key)) values.sort();
      into.set(key, values);
    } else {
      collectKnownValues(value, into);
    }
  }
}
