import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../infra/local/static-server';
import { contentSecurityPolicy } from '../../infra/web-edge-policy';

let distDir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'toppubs-dist-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(distDir, 'assets', 'app-1a2b.js'), 'console.log("app")');
  const serveStatic = createStaticServer(distDir);
  server = createServer((request, response) => serveStatic(request, response, new URL(`http://localhost${request.url}`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(distDir, { recursive: true, force: true });
});

/** The answer's status and headers, with the path sent as given. */
function head(path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the local static server', () => {
  it('sends the web app security headers on pages and assets, framing allowed', async () => {
    // Act
    const page = await head('/topic/tech');
    const asset = await head('/assets/app-1a2b.js');

    // Assess
    for (const answer of [page, asset]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-security-policy']).toBe(contentSecurityPolicy('allowed'));
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['x-frame-options']).toBeUndefined();
    }
    expect(page.headers['content-security-policy']).not.toContain('frame-ancestors');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('refuses framing for the account and login pages', async () => {
    // Act
    const answers = await Promise.all(['/me', '/me/sessions', '/login', '/login/confirm', '/logout'].map(head));
    const lookalike = await head('/media');

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-security-policy']).toBe(contentSecurityPolicy('denied'));
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(lookalike.headers['x-frame-options']).toBeUndefined();
  });

  it('redirects other spellings of those pages to the one that refuses framing, as CloudFront does', async () => {
    // Act
    const upper = await head('/ME?tab=sessions');
    const encoded = await head('/%6Cogin/confirm');

    // Assess
    expect(upper.status).toBe(301);
    expect(upper.headers.location).toBe('/me?tab=sessions');
    expect(encoded.status).toBe(301);
    expect(encoded.headers.location).toBe('/login/confirm');
  });
});
