import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import * as z from '../../shared/zod';
import { type Capabilities, SETTING_GROUPS } from '../../shared/capabilities';
import {
  APP_TOKEN_HEADER,
  APPLICATION_ID_HEADER,
  CORS_ALLOWED_HEADERS,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  SESSION_HEADER,
  WEB_APPLICATION_ID,
} from '../../shared/constants';
import {
  type AccessLevel,
  accessLevels,
  isRedirectRoute,
  noBody,
  type RouteDefinition,
  routeEntries,
} from '../../shared/routes/index';
import {
  BadRequest,
  Conflict,
  Forbidden,
  type HttpError,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
  UnsupportedMediaType,
  ValidationFailed,
} from '../../functions/lib/errors';
import { MAX_BODY_BYTES } from '../../functions/lib/http/parse-input';
import { EVERY_FUNCTION } from '../../shared/functions';
import { WORK_QUEUES } from '../../shared/queues';
import { JOB_SCHEDULES } from '../../shared/schedules';

/**
 * docs/api.md, written from the route table so that it cannot drift: `npm run docs:api` writes
 * it, and test/unit/api-doc.test.ts fails when the committed file differs from what this renders.
 * Request and response shapes come from the routes' zod schemas through z.toJSONSchema (the
 * input side: what a caller sends, and what a handler may answer), shown as field tables for
 * requests and TypeScript-style types for answers.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const API_DOC_PATH = path.join(REPO_ROOT, 'docs', 'api.md');

/** The part of JSON Schema that z.toJSONSchema produces for this repo's schemas. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  /** Set on the node of a named schema (see sharedTypes). */
  'x-name'?: string;
}

/** A schema converted, or what could not be. */
interface Converted {
  schema: JsonSchema;
  /** Set when part of the schema had no JSON Schema form and is shown as `unknown`. */
  unrepresentable?: string;
}

/** Zod schemas exported by shared/schemas, by the name their type is shown under (rankedPublicationSchema: RankedPublication). */
type SchemaNames = ReadonlyMap<z.core.$ZodType, string>;

/**
 * The caller's side of a schema, with the nodes of named schemas tagged. Defaults are added by
 * hand: zod leaves a default out of the input side when it sits on a transform (paging's
 * `limit`), yet a caller wants to know it.
 */
function toJsonSchema(schema: z.ZodMiniType, names: SchemaNames): Converted {
  const options = {
    io: 'input' as const,
    target: 'draft-2020-12' as const,
    override: (ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }) => {
      const def = ctx.zodSchema._zod.def;
      if (def.type === 'default' && ctx.jsonSchema.default === undefined) ctx.jsonSchema.default = def.defaultValue;
      const name = names.get(ctx.zodSchema);
      if (name !== undefined) ctx.jsonSchema['x-name'] = name;
    },
  };
  try {
    return { schema: z.toJSONSchema(schema, { ...options, unrepresentable: 'throw' }) as JsonSchema };
  } catch (error) {
    return {
      schema: z.toJSONSchema(schema, { ...options, unrepresentable: 'any' }) as JsonSchema,
      unrepresentable: (error as Error).message,
    };
  }
}

const SCHEMAS_DIR = path.join(REPO_ROOT, 'shared', 'schemas');

function isZodSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** Every object schema shared/schemas exports, named after its export; files and exports in name order. */
async function exportedObjectSchemas(): Promise<Map<z.ZodMiniType, string>> {
  const names = new Map<z.ZodMiniType, string>();
  const taken = new Set<string>();
  for (const file of readdirSync(SCHEMAS_DIR)
    .filter((name) => name.endsWith('.ts'))
    .sort()) {
    const module = (await import(/* @vite-ignore */ pathToFileURL(path.join(SCHEMAS_DIR, file)).href)) as Record<string, unknown>;
    for (const key of Object.keys(module).sort()) {
      const value = module[key];
      if (!key.endsWith('Schema') || !isZodSchema(value) || value._zod.def.type !== 'object' || names.has(value)) continue;
      const base = `${key.charAt(0).toUpperCase()}${key.slice(1, -'Schema'.length)}`;
      const moduleName = file.replace(/\.ts$/, '');
      const name = taken.has(base) ? `${moduleName.charAt(0).toUpperCase()}${moduleName.slice(1)}${base}` : base;
      taken.add(name);
      names.set(value, name);
    }
  }
  return names;
}

/** What the renderer knows: the named types shown once under "Shared types", and those one section used. */
interface TypeContext {
  shared: ReadonlySet<string>;
  used: Set<string>;
}

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

function isNullOnly(schema: JsonSchema): boolean {
  return schema.type === 'null';
}

/**
 * A schema as a TypeScript type. A shared named type is shown by its name (unless `expand`, for
 * its own definition); `multiline` puts each object member on its own line with its rules as a
 * comment.
 */
function typeOf(schema: JsonSchema, context: TypeContext, multiline: boolean, expand = false): string {
  const name = schema['x-name'];
  if (!expand && name !== undefined && context.shared.has(name)) {
    context.used.add(name);
    return name;
  }
  const inner = (child: JsonSchema) => typeOf(child, context, multiline);
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(inner).join(' | ');
  if (schema.allOf) return schema.allOf.map(inner).join(' & ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => inner({ ...schema, type, 'x-name': undefined })).join(' | ');
  switch (schema.type) {
    case 'string':
    case 'boolean':
    case 'null':
    case 'number':
      return schema.type;
    case 'integer':
      return 'number';
    case 'array': {
      if (schema.prefixItems) return `[${schema.prefixItems.map(inner).join(', ')}]`;
      const item = schema.items ? inner(schema.items) : 'unknown';
      return /[|&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, context, multiline);
    default:
      return 'unknown';
  }
}

function objectType(schema: JsonSchema, context: TypeContext, multiline: boolean): string {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  const extraType =
    extra === undefined || extra === false ? undefined : extra === true ? 'unknown' : typeOf(extra, context, multiline);
  if (properties.length === 0) return extraType === undefined ? '{}' : `Record<string, ${extraType}>`;
  const required = new Set(schema.required ?? []);
  const members = properties.map(([name, property]) => {
    const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
    const member = `${key}${required.has(name) ? '' : '?'}: ${typeOf(property, context, multiline)};`;
    const rules = rulesOf(property);
    return multiline && rules.length > 0 ? `${member} // ${rules.join('; ')}` : member;
  });
  if (extraType !== undefined) members.push(`[key: string]: ${extraType};`);
  return multiline ? `{\n${members.join('\n')}\n}` : `{ ${members.join(' ')} }`;
}

/** The named nodes directly inside a schema (not inside another named node), counting repeats. */
function namedReferences(schema: JsonSchema, shared: ReadonlySet<string>, isRoot: boolean, found: string[] = []): string[] {
  const name = schema['x-name'];
  if (!isRoot && name !== undefined && shared.has(name)) {
    found.push(name);
    return found;
  }
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(schema.prefixItems ?? []),
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
  ];
  for (const child of children) namedReferences(child, shared, false, found);
  return found;
}

const FORMATS: Record<string, string> = {
  email: 'an email address',
  'date-time': 'an ISO 8601 date-time',
  date: 'an ISO 8601 date',
  uri: 'an absolute URL',
  uuid: 'a UUID',
};

function range(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} ${unit}` : `${min} to ${max} ${unit}`;
  if (min !== undefined && min > 0) return `at least ${min} ${unit}`;
  if (max !== undefined) return `at most ${max} ${unit}`;
  return undefined;
}

/** The checks of one value that its type does not show, in words. */
function rulesOf(schema: JsonSchema): string[] {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.filter((variant) => !isNullOnly(variant)).flatMap(rulesOf);
  const rules: string[] = [];
  if (schema.type === 'integer') rules.push('a whole number');
  const minimum = schema.minimum !== undefined && schema.minimum > -SAFE_INTEGER_BOUND ? schema.minimum : undefined;
  const maximum = schema.maximum !== undefined && schema.maximum < SAFE_INTEGER_BOUND ? schema.maximum : undefined;
  if (minimum !== undefined && maximum !== undefined) rules.push(`${minimum} to ${maximum}`);
  else if (minimum !== undefined) rules.push(`at least ${minimum}`);
  else if (maximum !== undefined) rules.push(`at most ${maximum}`);
  if (schema.exclusiveMinimum !== undefined) rules.push(`above ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) rules.push(`below ${schema.exclusiveMaximum}`);
  const length = range(schema.minLength, schema.maxLength, 'characters');
  if (length) rules.push(length);
  const items = range(schema.minItems, schema.maxItems, 'items');
  if (items) rules.push(items);
  if (schema.format) rules.push(FORMATS[schema.format] ?? `format ${schema.format}`);
  // A format's own pattern (zod's email and date-time regexes) says nothing the format does not.
  else if (schema.pattern) rules.push(`matches \`${schema.pattern}\``);
  if (schema.type === 'array' && schema.items) {
    const itemRules = rulesOf(schema.items);
    if (itemRules.length > 0) rules.push(`each ${itemRules.join(', ')}`);
  }
  if (schema.default !== undefined) rules.push(`default \`${literal(schema.default)}\``);
  return rules;
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** The schemas of a route that are rendered, and whether each is expanded at its root (request tables). */
function renderedParts(route: RouteDefinition): { schema: z.ZodMiniType; expandRoot: boolean }[] {
  return [
    { schema: route.params, expandRoot: true },
    { schema: route.query, expandRoot: true },
    ...(route.body === noBody ? [] : [{ schema: route.body, expandRoot: true }]),
    ...(isRedirectRoute(route) ? [] : [{ schema: route.response, expandRoot: false }]),
  ];
}

/**
 * The named types worth showing once: those referenced from two places or more. Dropping a name
 * inlines it where it was used, which can change the counts of the names inside it, so this
 * repeats until nothing changes.
 */
function sharedTypes(names: SchemaNames): Map<string, z.ZodMiniType> {
  const byName = new Map([...names].map(([schema, name]) => [name, schema as z.ZodMiniType]));
  const converted = routeEntries.flatMap(([, route]) =>
    renderedParts(route).map((part) => ({ json: toJsonSchema(part.schema, names).schema, expandRoot: part.expandRoot })),
  );
  const definitions = new Map([...byName].map(([name, schema]) => [name, toJsonSchema(schema, names).schema]));
  let shared = new Set(byName.keys());
  for (;;) {
    const counts = new Map<string, number>();
    const count = (found: string[]) => found.forEach((name) => counts.set(name, (counts.get(name) ?? 0) + 1));
    for (const part of converted) count(namedReferences(part.json, shared, part.expandRoot));
    for (const name of shared) count(namedReferences(definitions.get(name) as JsonSchema, shared, true));
    const next = new Set([...shared].filter((name) => (counts.get(name) ?? 0) >= 2));
    if (next.size === shared.size) break;
    shared = next;
  }
  return new Map([...shared].sort().map((name) => [name, byName.get(name) as z.ZodMiniType]));
}

interface FieldRow {
  field: string;
  in: 'path' | 'query' | 'body';
  type: string;
  required: boolean;
  rules: string[];
}

interface RequestPart {
  rows: FieldRow[];
  notes: string[];
}

interface Renderer {
  names: SchemaNames;
  shared: ReadonlySet<string>;
  anchors: ReadonlyMap<string, string>;
}

function requestPart(renderer: Renderer, context: TypeContext, where: FieldRow['in'], schema: z.ZodMiniType): RequestPart {
  const { schema: json, unrepresentable } = toJsonSchema(schema, renderer.names);
  const notes: string[] = [];
  if (unrepresentable)
    notes.push(`Part of the ${where} has no JSON Schema form (${unrepresentable}); it is shown as \`unknown\`.`);
  if (json.type !== 'object' || json.anyOf) {
    const rules = rulesOf(json);
    notes.push(`The ${where} is \`${typeOf(json, context, false, true)}\`${rules.length ? ` (${rules.join('; ')})` : ''}.`);
    return { rows: [], notes };
  }
  const required = new Set(json.required ?? []);
  const rows = Object.entries(json.properties ?? {}).map(([field, property]) => ({
    field,
    in: where,
    type: typeOf(property, context, false),
    required: required.has(field),
    rules: rulesOf(property),
  }));
  if (json.additionalProperties !== false) {
    notes.push(
      where === 'query' ? 'Query parameters not listed are accepted too.' : `Fields of the ${where} not listed are accepted too.`,
    );
  }
  return { rows, notes };
}

function renderRequest(renderer: Renderer, context: TypeContext, route: RouteDefinition): string[] {
  const parts = [requestPart(renderer, context, 'path', route.params), requestPart(renderer, context, 'query', route.query)];
  const lines: string[] = [];
  let bodyNote: string;
  if (route.body === noBody) {
    bodyNote = 'No body.';
  } else {
    parts.push(requestPart(renderer, context, 'body', route.body));
    bodyNote = route.body.safeParse(undefined).success ? 'The JSON body is optional.' : 'A JSON body is required.';
  }
  const rows = parts.flatMap((part) => part.rows);
  if (rows.length === 0) {
    lines.push(`**Request:** no parameters. ${bodyNote}`, '');
  } else {
    lines.push('**Request:**', '', '| field | in | type | required | rules |', '| --- | --- | --- | --- | --- |');
    for (const row of rows) {
      lines.push(
        `| \`${row.field}\` | ${row.in} | \`${escapeCell(row.type)}\` | ${row.required ? 'yes' : 'no'} | ${escapeCell(row.rules.join('; '))} |`,
      );
    }
    lines.push('', bodyNote, '');
  }
  for (const note of parts.flatMap((part) => part.notes)) lines.push(note, '');
  return lines;
}

function renderResponse(renderer: Renderer, context: TypeContext, name: string, route: RouteDefinition): string[] {
  if (isRedirectRoute(route)) {
    return [
      '**Answer:** `302` redirect: a `Location` header and no body (`Cache-Control: no-store`, `Referrer-Policy: no-referrer`).',
      '',
    ];
  }
  const { schema, unrepresentable } = toJsonSchema(route.response, renderer.names);
  const typeName = `${name.charAt(0).toUpperCase()}${name.slice(1)}Answer`;
  const lines = ['**Answer:** `200` JSON:', '', '```ts', `type ${typeName} = ${typeOf(schema, context, true)};`, '```', ''];
  if (unrepresentable)
    lines.push(`Part of the answer has no JSON Schema form (${unrepresentable}); it is shown as \`unknown\`.`, '');
  return lines;
}

/** "Shared types: [`A`](#a), [`B`](#b)." for the named types a section used, or nothing. */
function sharedTypeLinks(renderer: Renderer, used: ReadonlySet<string>): string[] {
  if (used.size === 0) return [];
  const links = [...used].sort().map((name) => `[\`${name}\`](#${renderer.anchors.get(name) as string})`);
  return [`Shared types: ${links.join(', ')}.`, ''];
}

const ACCESS_WORDS: Record<AccessLevel, string> = {
  public: 'anyone, signed in or not',
  user: 'a signed-in user',
  superuser: 'a signed-in superuser',
  app: 'a registered app (app credentials)',
};

function whoMayCall(route: RouteDefinition): string {
  const levels = accessLevels(route.access);
  const words = levels.map((level) => ACCESS_WORDS[level]).join(' or ');
  return `${words} (${levels.map((level) => `\`${level}\``).join(', ')})`;
}

/**
 * Each capability in words, or nothing when a function lacks it. A record over every field, so a
 * capability added to `Capabilities` cannot go unmentioned here (the typecheck asks for it).
 */
const CAPABILITY_WORDS: { [K in keyof Capabilities]: (value: Capabilities[K]) => string | undefined } = {
  table: (access) => `table ${access}`,
  email: (sends) => (sends ? 'sends email' : undefined),
  bucket: (access) => (access === 'none' ? undefined : `file bucket ${access}`),
  realtime: (pushes) => (pushes ? 'pushes to open WebSocket connections' : undefined),
  payments: (calls) => (calls ? 'calls the payment gateway' : undefined),
  merchantKeys: (access) => (access === 'none' ? undefined : `merchant keys: ${access}`),
  analytics: (access) => (access === 'none' ? undefined : `analytics: ${access}`),
  queues: (queues) => (queues.length === 0 ? undefined : `sends to ${queues.map((queue) => `\`${queue}\``).join(', ')}`),
  settings: (groups) => (groups.length === 0 ? undefined : `settings: ${groups.map((group) => `\`${group}\``).join(', ')}`),
};

function capabilityWords(capabilities: Capabilities): string {
  return (Object.keys(CAPABILITY_WORDS) as (keyof Capabilities)[])
    .map((key) => (CAPABILITY_WORDS[key] as (value: unknown) => string | undefined)(capabilities[key]))
    .filter((words): words is string => words !== undefined)
    .join(', ');
}

function everyWords(minutes: number): string {
  const [count, unit] =
    minutes % (24 * 60) === 0 ? [minutes / (24 * 60), 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
}

/** The functions nothing calls over HTTP: jobs, queue consumers and WebSocket handlers. */
function otherFunctions(): string[] {
  const lines = [
    '## Functions that are not endpoints',
    '',
    "Deployed beside the routes, from `shared/schedules.ts` (jobs: EventBridge rules in AWS, timers locally), `shared/queues.ts` (queue consumers, fed by SQS) and `shared/realtime.ts` (the WebSocket API's handlers). What each may do comes from its capabilities, as for routes.",
    '',
    '| function | kind | handler | runs | may |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const entry of EVERY_FUNCTION.filter((candidate) => candidate.kind !== 'route')) {
    const job = JOB_SCHEDULES.find((candidate) => candidate.name === entry.name);
    const queue = WORK_QUEUES.find((candidate) => candidate.consumer.name === entry.name);
    const runs = job
      ? `${everyWords(job.everyMinutes)}: ${job.description}`
      : queue
        ? `on messages of \`${queue.name}\`${queue.fifo ? ' (FIFO)' : ''}, ${queue.consumer.batchSize} at a time`
        : 'on WebSocket events';
    lines.push(
      `| \`${entry.name}\` | ${entry.kind} | \`functions/${entry.handler}.ts\` | ${escapeCell(runs)} | ${capabilityWords(entry.capabilities)} |`,
    );
  }
  lines.push('');
  return lines;
}

function cacheWords(route: RouteDefinition): string {
  if (route.method === 'GET' && route.cacheSeconds) {
    return `${route.cacheSeconds} s by browsers and CloudFront, with an \`ETag\``;
  }
  return 'never (`no-store`)';
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string, taken: Map<string, number>): string {
  const base = heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
  const count = taken.get(base) ?? 0;
  taken.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

const appOf = (route: RouteDefinition) => route.handler.split('/')[0] ?? route.handler;
const prefixOf = (route: RouteDefinition) => route.path.split('/').slice(0, 4).join('/');

function describeError(error: HttpError, meaning: string): string {
  return `| ${error.statusCode} | \`${error.code}\` | ${meaning} |`;
}

function commonRules(): string[] {
  const bodySize =
    MAX_BODY_BYTES % (1024 * 1024) === 0 ? `${MAX_BODY_BYTES / (1024 * 1024)} MB` : `${Math.round(MAX_BODY_BYTES / 1024)} KB`;
  return [
    '## Common rules',
    '',
    "**Calling.** The web app and the API share one origin: CloudFront sends `/api/*` to the HTTP API in AWS, and `npm start` serves both on one port. Path parameters, query strings and JSON bodies are checked against each route's schemas before its handler runs. A body is JSON sent with `Content-Type: application/json`, at most " +
      `${bodySize}. Fields a route does not list are refused (400) unless its section says otherwise; a body sent to a route that takes none is refused too.`,
    '',
    '**Who may call.** Each route names one or more access levels:',
    '',
    `- \`public\`: anyone. A session or app credentials are still read when sent.`,
    `- \`user\`: a signed-in user, identified by a session token: the \`${SESSION_HEADER}\` cookie the login sets (HttpOnly, Secure, SameSite=Lax), or the \`${SESSION_HEADER}\` header for callers that are not a browser on this site. No session, or an unknown or expired one: 401. Superusers are users too.`,
    `- \`superuser\`: a signed-in user with the superuser flag; other users get 403.`,
    `- \`app\`: a registered server-side app, sending \`${APPLICATION_ID_HEADER}: <app id>\` and \`${APP_TOKEN_HEADER}: <its private token>\` (register one locally with \`npm run app:register -- <app id> "<name>"\`). An id and token that do not match a registered app are refused with 401 on every route.`,
    '',
    'A route listing several levels admits a caller of any of them; a caller of none gets 401 when anonymous, 403 otherwise.',
    '',
    `**Changing state.** A route marked "changes state" (by default every method but GET, and the GET routes that say so) needs the \`${APPLICATION_ID_HEADER}\` header, whatever its method: the web app sends \`${WEB_APPLICATION_ID}\`, any other app sends its own id and its \`${APP_TOKEN_HEADER}\`. A custom header forces a CORS preflight, which a page on another site cannot pass. When the request has an \`Origin\`, it must be one of the deployment's allowed origins. Either failing: 403.`,
    '',
    `**CORS.** Allowed origins may call with credentials; a preflight allows the request headers ${CORS_ALLOWED_HEADERS.map((header) => `\`${header}\``).join(', ')}, and answers expose \`etag\` and \`retry-after\`.`,
    '',
    '**Answers.** JSON (`application/json; charset=utf-8`), or a `302` redirect for the routes that say so. Answers are `Cache-Control: no-store` unless the route lists a cache time N: then `Cache-Control: public, max-age=N, s-maxage=N, stale-while-revalidate=5N` and an `ETag`, and a request whose `If-None-Match` matches gets `304` with no body. Every answer carries `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and a `Content-Security-Policy` that allows nothing.',
    '',
    '**Errors** are JSON `{ "message": "...", "code": "...", ...fields }`: `message` is for people, `code` for programs.',
    '',
    '| status | code | meaning |',
    '| --- | --- | --- |',
    describeError(
      new ValidationFailed([]),
      'a path parameter, query parameter or body field is wrong; `fields: [{ in, field, message }]` names every one',
    ),
    describeError(
      new BadRequest(''),
      'the body is not valid JSON, or the route takes no body; some routes use a more specific code',
    ),
    describeError(
      new Unauthorized(),
      'the route needs a signed-in user (or app credentials) and the request has none, or app credentials do not match',
    ),
    describeError(
      new Forbidden(),
      'the caller is of the wrong level, or a state-changing request lacks the app id header or comes from an origin not allowed',
    ),
    describeError(new NotFound(''), 'the object named does not exist (a slug, topic, user, session)'),
    describeError(
      new Conflict(''),
      'the change conflicts with the current state (a username taken, a concurrent change); some routes use a more specific code',
    ),
    describeError(new PayloadTooLarge(MAX_BODY_BYTES), `the body is over ${bodySize}`),
    describeError(new UnsupportedMediaType(), 'a body was sent without `Content-Type: application/json`'),
    describeError(
      new RateLimited('', 1),
      'too many calls of this kind (e.g. login emails); `retryAfterSeconds` and the `Retry-After` header say when to try again',
    ),
    '| 500 | `INTERNAL_ERROR` | a fault on the server side; the answer never carries its details |',
    describeError(
      new ServiceUnavailable(''),
      'the database is throttling or out of reach (with `Retry-After`), a dependency is down, or a feature is not configured in this deployment (e.g. Google login)',
    ),
    '',
    `**Paging.** List routes share four query parameters: \`from\` (a zero-based offset), \`page\` (one-based; \`from\` wins when both are given), \`limit\` (default ${DEFAULT_PAGE_SIZE}; a larger value is capped at ${MAX_PAGE_SIZE} rather than refused) and \`sortOrder\` (\`desc\`, the default, or \`asc\`). Their answers carry \`pageInfo: { from, limit, page, total, sortOrder, hasMore }\`.`,
    '',
    `**Capabilities** are what a route's function may do, declared in the route table: its IAM grants and environment in AWS, enforced the same way by the local runtime. \`table read\` may only read the product's table (a write is refused with DynamoDB's \`AccessDeniedException\`), \`table read-write\` may write it; \`sends email\` may send through SES; \`file bucket\` may use the file bucket; \`settings\` lists the groups of optional settings the function is given, and no others: ${Object.entries(
      SETTING_GROUPS,
    )
      .map(
        ([group, { variables, secrets }]) =>
          `\`${group}\` (${[...variables, ...secrets.map((secret) => `${secret}, a secret`)].map((name) => name.replace(/^([A-Z_]+)/, '`$1`')).join(', ')})`,
      )
      .join('; ')}. In a deployment without its settings, Google login and Twitter login answer 503.`,
    '',
    '**Sessions** are renewed as they are used (their last use recorded and their expiry pushed out, in one conditional write at most every five minutes per session) only by routes whose capabilities include table writes; every other route reads the session and never writes it.',
    '',
  ];
}

function renderRoute(renderer: Renderer, name: string, route: RouteDefinition): string[] {
  const facts = [
    `- **Who may call:** ${whoMayCall(route)}`,
    `- **Changes state:** ${
      route.stateChanging
        ? `yes: send \`${APPLICATION_ID_HEADER}\`; an \`Origin\`, when sent, must be allowed`
        : isRedirectRoute(route)
          ? 'no: browsers reach it by navigation, without the app id header'
          : 'no'
    }`,
    `- **Capabilities:** ${capabilityWords(route.capabilities)}`,
    `- **Cached:** ${cacheWords(route)}`,
    ...(route.memoryMb ? [`- **Memory:** ${route.memoryMb} MB`] : []),
    `- **Route table:** \`${name}\`, handler \`functions/${route.handler}.ts\``,
  ];
  const context: TypeContext = { shared: renderer.shared, used: new Set() };
  return [
    `### ${headingOf(route)}`,
    '',
    route.summary,
    '',
    ...facts,
    '',
    ...renderRequest(renderer, context, route),
    ...renderResponse(renderer, context, name, route),
    ...sharedTypeLinks(renderer, context.used),
  ];
}

const headingOf = (route: RouteDefinition) => `${route.method} ${route.path}`;
const titleOf = (app: string) => `${app.charAt(0).toUpperCase()}${app.slice(1)}`;

/** The whole document, formatted as prettier leaves it. */
export async function renderApiDoc(): Promise<string> {
  const names = await exportedObjectSchemas();
  const shared = sharedTypes(names);
  const apps = [...new Set(routeEntries.map(([, route]) => appOf(route)))];
  const routesOf = (app: string) => routeEntries.filter(([, route]) => appOf(route) === app);

  // Anchors in document order, as GitHub numbers repeated headings.
  const taken = new Map<string, number>();
  const anchors = new Map<string, string>();
  for (const heading of ['API reference', 'Common rules', 'Endpoints']) anchorOf(heading, taken);
  for (const app of apps) {
    anchorOf(titleOf(app), taken);
    for (const [name, route] of routesOf(app)) anchors.set(name, anchorOf(headingOf(route), taken));
  }
  anchorOf('Functions that are not endpoints', taken);
  anchorOf('Shared types', taken);
  for (const name of shared.keys()) anchors.set(name, anchorOf(name, taken));
  const renderer: Renderer = { names, shared: new Set(shared.keys()), anchors };

  const lines: string[] = [
    '# API reference',
    '',
    '<!-- Generated from the route table (shared/routes) by `npm run docs:api`: do not edit by hand. test/unit/api-doc.test.ts fails when this file is stale. -->',
    '',
    `Every endpoint of the product, ${routeEntries.length} in all, from the route table in \`shared/routes\`: the entries CDK deploys, the local runtime serves and the web client is typed from. Request fields and answers are rendered from each route's zod schemas (the caller's side: what may be sent, what a handler may answer); checks written as code (refinements) are not shown, but a request failing one is refused with a 400 that names the field. How the parts fit is in [architecture.md](architecture.md).`,
    '',
    ...commonRules(),
    '## Endpoints',
    '',
    '| call | who may call | changes state | cached | summary |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const app of apps) {
    for (const [name, route] of routesOf(app)) {
      lines.push(
        `| [\`${headingOf(route)}\`](#${anchors.get(name) as string}) | ${accessLevels(route.access).join(', ')} | ${route.stateChanging ? 'yes' : 'no'} | ${route.method === 'GET' && route.cacheSeconds ? `${route.cacheSeconds} s` : 'no'} | ${escapeCell(route.summary)} |`,
      );
    }
  }
  lines.push('');

  for (const app of apps) {
    const prefixes = [...new Set(routesOf(app).map(([, route]) => prefixOf(route)))];
    lines.push(
      `## ${titleOf(app)}`,
      '',
      `Handlers in \`functions/${app}/\`; paths under ${prefixes.map((prefix) => `\`${prefix}\``).join(', ')}.`,
      '',
    );
    for (const [name, route] of routesOf(app)) lines.push(...renderRoute(renderer, name, route));
  }

  lines.push(...otherFunctions());

  lines.push(
    '## Shared types',
    '',
    'Object shapes used by more than one route, named after their schema in `shared/schemas`.',
    '',
  );
  for (const [name, schema] of shared) {
    const context: TypeContext = { shared: renderer.shared, used: new Set() };
    const { schema: json } = toJsonSchema(schema, names);
    lines.push(`### ${name}`, '', '```ts', `type ${name} = ${typeOf(json, context, true, true)};`, '```', '');
    lines.push(...sharedTypeLinks(renderer, context.used));
  }

  const config = (await prettier.resolveConfig(API_DOC_PATH)) ?? {};
  return prettier.format(lines.join('\n'), { ...config, filepath: API_DOC_PATH });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  writeFileSync(API_DOC_PATH, await renderApiDoc());
  console.warn(`Wrote ${path.relative(REPO_ROOT, API_DOC_PATH)} (${routeEntries.length} routes).`);
}
