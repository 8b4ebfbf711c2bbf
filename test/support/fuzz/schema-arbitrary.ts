import * as fc from 'fast-check';
import * as z from '../../../shared/zod';

/**
 * fast-check arbitraries made from a route's own zod schemas, through their JSON Schema: the
 * shapes a route accepts (valid-shaped inputs) and the same shapes spoiled the ways attackers and
 * broken clients spoil them (hostile inputs). Going through JSON Schema keeps this to the few
 * keywords zod emits for our schemas; a keyword it does not know makes it generate any JSON
 * there, so a new kind of schema is fuzzed loosely rather than not at all.
 */

/** The part of JSON Schema that zod emits for the route table's schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

export function jsonSchemaOf(schema: z.ZodMiniType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/**
 * Values the generator draws for a property or path parameter of that name (ids of objects that
 * exist, say, or a file size a plan allows, as its decimal text), besides what the schema alone
 * would give.
 */
export type KnownValues = ReadonlyMap<string, readonly string[]>;

export interface ArbitraryOptions {
  known: KnownValues;
  /** Strings a `uri` property may hold: pages this machine serves, so nothing reaches the network. */
  urls: readonly string[];
  /** Spoil the input: wrong types, boundary values, missing and extra fields. */
  hostile: boolean;
}

/** Strings that have broken parsers, storage and rendering elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u202egnp.html',
  '\u2028\u2029\u0085',
  '\ud800',
  '😀'.repeat(40),
  'ﬀ'.repeat(30),
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00%2F..%2F',
  '{"$ne":null}',
  'null',
  '-1',
  '1e309',
  // Over the longest URL the edge passes on, and long for any field.
  'x'.repeat(9_000),
  '__proto__',
  'constructor',
];

const NASTY_NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 5e-324];

/** Anything JSON can carry, in place of what the schema asks for. */
const wrongValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': 1 }),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...NASTY_NUMBERS),
    fc.jsonValue({ maxDepth: 2 }),
  );

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const lengthWithin =
  (minLength: number, maxLength: number) =>
  (value: string): boolean =>
    value.length >= minLength && value.length <= maxLength;

/** Arbitraries are immutable values: one per pattern and lengths serves every route and every run. */
const patternArbitraries = new Map<string, fc.Arbitrary<string>>();

/**
 * Strings matching a pattern, within the schema's lengths. Built once each: fc.stringMatching
 * parses the pattern into an arbitrary at every call (20 ms for a negated class such as
 * `[^\p{Cc}]`), and the fuzz makes a route's arbitraries anew for every input it draws (its
 * `known` values grow as the run goes): 4 of the fuzz file's 34 busy seconds in a profile.
 */
function patternArbitrary(pattern: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  const key = `${minLength}:${maxLength}:${pattern}`;
  let arbitrary = patternArbitraries.get(key);
  if (!arbitrary) {
    // A pattern's own lengths may exceed maxLength: keep the ones that fit.
    arbitrary = fc.stringMatching(new RegExp(pattern)).filter(lengthWithin(minLength, maxLength));
    patternArbitraries.set(key, arbitrary);
  }
  return arbitrary;
}

/** The values the caller knows for a property or parameter of this name (KnownValues). */
const knownFor = (name: string | undefined, options: ArbitraryOptions): readonly string[] =>
  name === undefined ? [] : (options.known.get(name) ?? []);

/** Mostly one of the known values that fit, where there are any, else what the schema gives. */
const preferringKnown = <T>(fitting: readonly T[], generated: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fitting.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...fitting), weight: 3 }, generated) : generated;

function stringArbitrary(schema: JsonSchema, name: string | undefined, options: ArbitraryOptions): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 200;
  let generated: fc.Arbitrary<string>;
  // A link's checks (http or https, a host) are refinements JSON Schema cannot carry: a property
  // named as a link gets links.
  if (schema.format === 'uri' || (name !== undefined && /urls?$/i.test(name))) {
    generated = fc.constantFrom(...options.urls);
  } else if (schema.pattern !== undefined) {
    generated = patternArbitrary(schema.pattern, minLength, maxLength);
  } else {
    generated = fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 60), unit: 'grapheme' });
  }
  return preferringKnown(knownFor(name, options).filter(lengthWithin(minLength, maxLength)), generated);
}

function numberArbitrary(
  schema: JsonSchema,
  integer: boolean,
  name: string | undefined,
  options: ArbitraryOptions,
): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum === undefined ? -1e6 : schema.exclusiveMinimum + (integer ? 1 : 1e-6));
  const max = schema.maximum ?? (schema.exclusiveMaximum === undefined ? 1e6 : schema.exclusiveMaximum - (integer ? 1 : 1e-6));
  let generated: fc.Arbitrary<number>;
  if (integer) {
    const [low, high] = [Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER)), Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER))];
    // The bounds themselves are where off-by-one mistakes live.
    generated = fc.oneof(fc.constantFrom(low, high), fc.integer({ min: low, max: high }));
  } else {
    generated = fc.oneof(fc.constantFrom(min, max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
  }
  // A value the caller knows makes sense there (a file's size within a plan's limits), as for strings.
  const fitting = knownFor(name, options)
    .map(Number)
    .filter((value) => Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value)));
  return preferringKnown(fitting, generated);
}

function objectArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [key, arbitraryFromSchema(property, options, key)]),
  );
  const requiredKeys = Object.keys(properties).filter((key) => required.has(key));
  const requiredOnly = Object.fromEntries(requiredKeys.map((key) => [key, shape[key] as fc.Arbitrary<unknown>]));
  // The bare minimum is a case of its own: optional fields often only make sense together.
  const valid = fc.oneof({ arbitrary: fc.record(shape, { requiredKeys }), weight: 3 }, fc.record(requiredOnly));
  if (!options.hostile) return valid;
  return fc.oneof(
    valid,
    // A required field missing.
    requiredKeys.length === 0
      ? valid
      : fc.tuple(valid, fc.constantFrom(...requiredKeys)).map(([value, key]) => {
          const { [key]: _dropped, ...rest } = value;
          return rest;
        }),
    // A field nobody declared (prototype names included).
    fc
      .tuple(valid, fc.constantFrom('fuzzExtra', '__proto__', 'constructor', 'isSuperUser', 'userId'), wrongValue())
      .map(([value, key, extra]) => ({ ...value, [key]: extra }) as Record<string, unknown>),
  );
}

/**
 * An arbitrary for the values `schema` describes; with `hostile`, each value may instead be a
 * wrong type or a boundary case, and objects may lose a required field or gain an unknown one.
 */
export function arbitraryFromSchema(schema: JsonSchema, options: ArbitraryOptions, name?: string): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, options, name);
  return options.hostile ? fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: wrongValue(), weight: 1 }) : valid;
}

function validArbitrary(schema: JsonSchema, options: ArbitraryOptions, name: string | undefined): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => arbitraryFromSchema(alternative, options, name)));
  if (schema.allOf?.length === 1 && schema.allOf[0]) return arbitraryFromSchema(schema.allOf[0], options, name);
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validArbitrary({ ...schema, type }, options, name)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema, name, options);
    case 'integer':
      return numberArbitrary(schema, true, name, options);
    case 'number':
      return numberArbitrary(schema, false, name, options);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFromSchema(schema.items ?? {}, options, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, (schema.minItems ?? 0) + 5),
      });
    case 'object':
      return objectArbitrary(schema, options);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
