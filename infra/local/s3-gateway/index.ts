import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newRequestId } from './errors';
import { route, type S3Api } from './operations';
import { corsAllows, corsHeaders, parseTarget, sendError } from './protocol';
import type { S3Credentials } from './signatures';
import { ObjectStore, type Upstream } from './store';

export { xmlEscape } from './errors';
export { CORS_RULE } from './protocol';
export type { S3Credentials } from './signatures';

export interface S3GatewayOptions {
  /** Where s3rver listens (on loopback), once it is started. */
  upstream: Upstream;
  /** s3rver's directory: multipart uploads are read and changed there. */
  directory: string;
  allowedOrigins: readonly string[];
  credentials: S3Credentials;
  /** Told of failures that are the gateway's own, not the caller's. */
  log?: (line: string) => void;
}

export interface S3Gateway {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * The HTTP layer in front of s3rver that answers as S3 does where s3rver does not (see "The
 * local S3" in docs/architecture.md); everything else goes to s3rver as it came.
 */
export async function startS3Gateway(options: S3GatewayOptions): Promise<S3Gateway> {
  const log = options.log ?? ((line: string) => console.error(line));
  const store = await ObjectStore.open(options.upstream, options.directory);
  const api: S3Api = { store, credentials: options.credentials, allowedOrigins: options.allowedOrigins };

  const server = createServer({ requestTimeout: 0 }, (request, response) => {
    const requestId = newRequestId();
    response.setHeader('x-amz-request-id', requestId);
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    const origin = request.headers.origin;
    if (request.method !== 'OPTIONS' && corsAllows(options.allowedOrigins, origin, request.method) && origin) {
      for (const [name, value] of Object.entries(corsHeaders(origin))) response.setHeader(name, value);
    }
    Promise.resolve()
      .then(() => route(api, request, response, parseTarget(request.url)))
      .catch((error: unknown) => sendError(response, error, requestId, log));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}
