import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import {
  framingFor,
  isPagePath,
  PAGE_REQUEST_FUNCTION_CODE,
  VIEWER_REQUEST_FUNCTION_CODE,
  type ViewerRequest,
  type PolicySources,
  type ViewerRequestResult,
  webSecurityHeaders,
} from '../web-edge-policy';
import { decodePathComponent } from './malformed-request';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.webmanifest']);

interface Asset {
  body: Buffer;
  gzipped: Buffer | undefined;
  contentType: string;
  cacheControl: string;
}

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Web app not built</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5">
<h1>The API is running; the web app is not built yet</h1>
<p>Build it with <code>npm run build:web</code> and reload. The API answers under <a href="/api/health">/api</a>.</p></body></html>`;

/** CloudFront's query string shape: raw (still encoded) values, repeated names as multiValue. */
function toQuerystring(search: string): NonNullable<ViewerRequest['querystring']> {
  const querystring: NonNullable<ViewerRequest['querystring']> = {};
  for (const part of search.slice(1).split('&').filter(Boolean)) {
    const [name = '', value = ''] = part.split(/=(.*)/s);
    const existing = querystring[name];
    if (!existing) querystring[name] = { value };
    else existing.multiValue = [...(existing.multiValue ?? [{ value: existing.value }]), { value }];
  }
  return querystring;
}

/** How a page request reaches the API origin once the edge has rewritten it (the local API router). */
export type PageOrigin = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>;

/**
 * What CloudFront's page behaviours do to the renderer's answer: the site's security headers
 * replace the API's (override), and the API's refusal to be framed is removed, so a page
 * answers with the same headers whether the bucket or the renderer served it.
 */
function applyPageHeaders(response: ServerResponse, headers: Record<string, string>): void {
  const setHeader = response.setHeader.bind(response);
  for (const [name, value] of Object.entries(headers)) setHeader(name, value);
  response.setHeader = ((name: string, value: number | string | readonly string[]) => {
    const lower = name.toLowerCase();
    if (lower in headers || lower === 'x-frame-options') return response;
    return setHeader(name, value);
  }) as ServerResponse['setHeader'];
}

/**
 * Serves the built web app like CloudFront does: the same viewer-request function (client routes
 * become index.html; no-frame pages in another spelling are redirected), files as they are
 * (hashed assets cached for a year), and the same security headers, chosen by the same path
 * patterns as CloudFront's behaviours. A file the function keeps that is missing falls back to
 * index.html too, so a half-built dist still loads.
 */
export function createStaticServer(rootDir: string, sources: PolicySources = {}) {
  const cache = new Map<string, Asset | null>();
  const viewerRequest = runInNewContext(`${VIEWER_REQUEST_FUNCTION_CODE};handler`) as (event: {
    request: ViewerRequest;
  }) => ViewerRequestResult;
  const pageRequest = runInNewContext(`${PAGE_REQUEST_FUNCTION_CODE};handler`) as (event: {
    request: ViewerRequest;
  }) => ViewerRequest;

  function load(relativePath: string): Asset | null {
    const cached = cache.get(relativePath);
    if (cached !== undefined) return cached;
    const file = normalize(join(rootDir, relativePath));
    let asset: Asset | null = null;
    if (file.startsWith(rootDir + sep) && existsSync(file) && statSync(file).isFile()) {
      const extension = extname(file);
      const body = readFileSync(file);
      asset = {
        body,
        gzipped: COMPRESSIBLE.has(extension) && body.length > 1024 ? gzipSync(body) : undefined,
        contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
        cacheControl: relativePath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      };
    }
    cache.set(relativePath, asset);
    return asset;
  }

  /**
   * The public pages go where CloudFront's page behaviours send them: through the same
   * viewer-request function to the page renderer on the API (`pageOrigin`). Without an origin
   * (the static server on its own) they are served the app shell, as the bucket would.
   */
  return function serveStatic(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    pageOrigin?: PageOrigin,
  ): void | Promise<void> {
    // A broken escape is refused before anything else, wherever it is in the path.
    decodePathComponent(url.pathname);
    const securityHeaders = webSecurityHeaders(framingFor(url.pathname), sources);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...securityHeaders, allow: 'GET, HEAD' }).end();
      return;
    }
    if (pageOrigin && isPagePath(url.pathname)) {
      const rewritten = pageRequest({ request: { uri: url.pathname, querystring: toQuerystring(url.search) } });
      const query = Object.entries(rewritten.querystring ?? {})
        .map(([name, { value }]) => `${name}=${value}`)
        .join('&');
      applyPageHeaders(response, securityHeaders);
      return pageOrigin(request, response, new URL(`${rewritten.uri}${query ? `?${query}` : ''}`, url.origin));
    }
    const edge = viewerRequest({ request: { uri: url.pathname, querystring: toQuerystring(url.search) } });
    if ('statusCode' in edge) {
      const headers = Object.fromEntries(Object.entries(edge.headers).map(([name, { value }]) => [name, value]));
      response.writeHead(edge.statusCode, { ...securityHeaders, ...headers }).end();
      return;
    }
    const asset = load(decodePathComponent(edge.uri)) ?? load('/index.html');
    if (!asset) {
      response
        .writeHead(200, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(NOT_BUILT_PAGE);
      return;
    }
    const useGzip = asset.gzipped && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const body = useGzip ? (asset.gzipped as Buffer) : asset.body;
    response.writeHead(200, {
      ...securityHeaders,
      'content-type': asset.contentType,
      'cache-control': asset.cacheControl,
      'content-length': String(body.length),
      vary: 'Accept-Encoding',
      ...(useGzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}
