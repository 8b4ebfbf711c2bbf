import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, GatewayHttpError } from './refusals';

/** The small HTTP pieces the gateway's routes share: bodies, answers, CORS. */

/** Far above any request the gateway takes (a subscription with its add-ons is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1_024;
/** Past this, a body is not even read to its end: the connection is dropped. */
const DRAIN_LIMIT_BYTES = 8 * 1_048_576;

export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit (what is over is dropped): an answer sent while the
  // caller is still sending would reach it as a reset connection, not as the 413.
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    else if (size > DRAIN_LIMIT_BYTES) request.destroy();
  }
  if (size > MAX_BODY_BYTES)
    throw new GatewayHttpError(413, { message: `The body is larger than ${MAX_BODY_BYTES / 1_024} KB.` });
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('The body must be JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

/** The path's segments, decoded; a broken percent-escape is the caller's 400. */
export function pathSegments(url: string | undefined): { segments: string[]; query: URLSearchParams } {
  try {
    const parsed = new URL(url ?? '/', 'http://gateway.invalid');
    return {
      segments: parsed.pathname
        .split('/')
        .filter((segment) => segment !== '')
        .map((segment) => decodeURIComponent(segment)),
      query: parsed.searchParams,
    };
  } catch {
    throw badRequest('The request path is not a valid, percent-encoded UTF-8 path.');
  }
}

/** HTTP Basic credentials, or undefined when the header is absent or not Basic. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The browser's routes: allowed origins may call with a preflight; any other is refused. */
export function corsHeaders(origin: string, requestedHeaders: string | undefined): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': requestedHeaders?.trim() || 'content-type',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
}
