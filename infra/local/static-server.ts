import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

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

/**
 * Serves the built web app like CloudFront does: files as they are (hashed assets cached for a
 * year), anything else falls back to index.html so client-side routes load.
 */
export function createStaticServer(rootDir: string) {
  const cache = new Map<string, Asset | null>();

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

  return function serveStatic(request: IncomingMessage, response: ServerResponse, url: URL): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const asset = load(decodeURIComponent(url.pathname)) ?? load('/index.html');
    if (!asset) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(NOT_BUILT_PAGE);
      return;
    }
    const useGzip = asset.gzipped && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const body = useGzip ? (asset.gzipped as Buffer) : asset.body;
    response.writeHead(200, {
      'content-type': asset.contentType,
      'cache-control': asset.cacheControl,
      'content-length': String(body.length),
      vary: 'Accept-Encoding',
      ...(useGzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}
