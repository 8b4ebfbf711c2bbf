import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { MalformedRequestError, RefusedAtTheEdge } from './malformed-request';
import { API_SECURITY_HEADERS } from '../../functions/lib/http/security-headers';

export interface LocalRoutes {
  /** Answers and returns true for its own paths; false leaves the request to the others. */
  serveMailOutbox(request: IncomingMessage, response: ServerResponse, url: URL): boolean;
  /** The emulated WebSocket management API; true when the path was its own. */
  serveRealtimeManagement(request: IncomingMessage, response: ServerResponse, url: URL): boolean;
  handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void>;
  /**
   * The web app; public pages go on to `pageOrigin` (the API) through the edge's page rewrite,
   * as CloudFront's page behaviours send them to the renderer.
   */
  serveStatic(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    pageOrigin: (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>,
  ): void | Promise<void>;
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** CloudFront's quotas: the longest URL it passes on, and the longest request line and headers together. */
export const MAX_URL_BYTES = 8_192;
export const MAX_REQUEST_HEAD_BYTES = 20_480;

/**
 * Only a path ('/x?y') reaches the site through CloudFront. It is appended to the origin rather
 * than resolved against it, so '//host/x' stays a path instead of naming another host.
 */
function parseTarget(target: string, origin: string): URL {
  if (!target.startsWith('/')) throw new MalformedRequestError('The request target must be a path.');
  try {
    return new URL(`${origin}${target}`);
  } catch (error) {
    throw new MalformedRequestError('The request target is not a valid path.', { cause: error });
  }
}

function answer(response: ServerResponse, api: boolean, status: number, message: string, code: string): void {
  if (response.headersSent) {
    // Part of an answer is out: cutting the connection is the only honest end.
    response.destroy();
    return;
  }
  if (api) {
    response.writeHead(status, {
      ...API_SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(JSON.stringify({ message, code }));
  } else {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`${message}\n`);
  }
}

const STARTING_RETRY_SECONDS = 5;
const STARTING_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="refresh" content="${STARTING_RETRY_SECONDS}">
    <title>Starting…</title>
  </head>
  <body>
    <h1>Starting…</h1>
    <p>The product is starting on this machine (the first start takes about a minute). This page reloads by itself.</p>
  </body>
</html>
`;

/**
 * What the port answers from the moment it is bound until the product is up (the first start
 * builds the web app for a minute): 503 with Retry-After, JSON under /api, a page that reloads
 * itself elsewhere. Without it a request of that minute was accepted and never answered.
 */
export function answerWhileStarting(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  const path = (request.url ?? '/').split('?')[0] as string;
  const common = { 'retry-after': String(STARTING_RETRY_SECONDS), 'cache-control': 'no-store' };
  if (isApiPath(path)) {
    response.writeHead(503, { ...API_SECURITY_HEADERS, ...common, 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ message: 'The product is starting: try again in a few seconds.', code: 'STARTING' }));
  } else {
    response.writeHead(503, {
      ...common,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    });
    response.end(request.method === 'HEAD' ? undefined : STARTING_PAGE);
  }
}

/**
 * The one request listener of the local server: the mail outbox, the realtime management API,
 * /api and the web app, whose public pages the API renders. No
 * request can take the process down: a malformed one is answered 400 (JSON under /api, plain
 * text for pages, as API Gateway and CloudFront would) and anything a route throws, at once or
 * later, is logged and answered 500.
 */
export function createRequestListener(
  routes: LocalRoutes,
  options: { origin: string; log: (line: string) => void },
): RequestListener {
  const handle = async (request: IncomingMessage, response: ServerResponse, target: string): Promise<void> => {
    if (Buffer.byteLength(target) > MAX_URL_BYTES) {
      throw new RefusedAtTheEdge(414, `The address is too long: at most ${MAX_URL_BYTES} bytes.`, 'URI_TOO_LONG');
    }
    const url = parseTarget(target, options.origin);
    if (routes.serveMailOutbox(request, response, url)) return;
    if (routes.serveRealtimeManagement(request, response, url)) return;
    if (isApiPath(url.pathname)) await routes.handleApi(request, response, url);
    else await routes.serveStatic(request, response, url, routes.handleApi);
  };

  return (request, response) => {
    const target = request.url ?? '/';
    // The path alone is logged: query strings can carry one-time codes (OAuth callbacks).
    const path = target.split('?')[0] as string;
    const api = isApiPath(path);
    handle(request, response, target).catch((error: unknown) => {
      try {
        if (error instanceof RefusedAtTheEdge) {
          answer(response, api, error.status, error.message, error.code);
          return;
        }
        if (error instanceof MalformedRequestError) {
          answer(response, api, 400, error.message, 'BAD_REQUEST');
          return;
        }
        options.log(`request ${request.method} ${path} failed: ${(error as Error).stack ?? String(error)}`);
        answer(response, api, 500, 'Something went wrong on our side. Please try again.', 'INTERNAL_ERROR');
      } catch (answerError) {
        options.log(`could not answer ${request.method} ${path}: ${(answerError as Error).message}`);
        response.destroy();
      }
    });
  };
}

/**
 * Requests Node's HTTP parser refuses before any listener sees them (a head over
 * MAX_REQUEST_HEAD_BYTES, a broken request line): answered in the API's error shape with the
 * security headers, as every other answer, instead of Node's bare status line.
 */
export function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason, message, code] = tooLarge
    ? [
        431,
        'Request Header Fields Too Large',
        `The request's address and headers are too large: at most ${MAX_REQUEST_HEAD_BYTES} bytes.`,
        'REQUEST_TOO_LARGE',
      ]
    : [400, 'Bad Request', 'The request could not be read.', 'BAD_REQUEST'];
  const body = JSON.stringify({ message, code });
  const headers = {
    ...API_SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n${body}`,
  );
}
