import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from '../../../shared/zod';
import { noBody, noParams, noQuery, type RouteDefinition } from '../../../shared/routes/define-route';
import { BadRequest, type FieldError, PayloadTooLarge, UnsupportedMediaType, ValidationFailed } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

function toFieldErrors(source: FieldError['in'], error: z.core.$ZodError): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ in: source, field: base ? `${base}.${key}` : key, message: 'Unknown field' }));
    }
    return [{ in: source, field: base || source, message: issue.message }];
  });
}

function readBody(
  event: APIGatewayProxyEventV2,
  headers: Record<string, string>,
  route: Pick<RouteDefinition, 'acceptsFormBody' | 'acceptsBeaconBody'>,
): unknown {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  const isForm =
    contentType.includes('application/x-www-form-urlencoded') ||
    (route.acceptsBeaconBody === true && contentType.startsWith('text/plain'));
  if (route.acceptsFormBody === true && isForm) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (!contentType.includes('application/json')) throw new UnsupportedMediaType();
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest('The request body is not valid JSON.');
  }
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

// Shared by every call that skips a parse, so frozen: a handler can never leak into the next call.
const EMPTY = Object.freeze({ success: true, data: Object.freeze({}) } as const);
const NOTHING = Object.freeze({ success: true, data: undefined } as const);

/** Validates path parameters, query and body against the route's schemas; 400 names every bad field. */
export function parseInput(route: RouteDefinition, event: APIGatewayProxyEventV2, headers: Record<string, string>): ParsedInput {
  const fields: FieldError[] = [];
  // An absent part checked against "nothing allowed" always passes: most GETs skip all three parses.
  const params =
    route.params === noParams && event.pathParameters === undefined ? EMPTY : route.params.safeParse(event.pathParameters ?? {});
  if (!params.success) fields.push(...toFieldErrors('params', params.error));
  const query =
    route.query === noQuery && event.queryStringParameters === undefined
      ? EMPTY
      : route.query.safeParse(event.queryStringParameters ?? {});
  if (!query.success) fields.push(...toFieldErrors('query', query.error));

  const rawBody = readBody(event, headers, route);
  const body = route.body === noBody && rawBody === undefined ? NOTHING : route.body.safeParse(rawBody);
  if (!body.success) {
    // Only a route declared without a body says so; an optional body's own errors name their fields.
    if (rawBody !== undefined && route.body === noBody) throw new BadRequest('This endpoint does not take a request body.');
    if (rawBody === undefined) fields.push({ in: 'body', field: 'body', message: 'A JSON body is required' });
    else fields.push(...toFieldErrors('body', body.error));
  }
  if (fields.length > 0 || !params.success || !query.success || !body.success) throw new ValidationFailed(fields);
  return { params: params.data, query: query.data, body: body.data };
}
