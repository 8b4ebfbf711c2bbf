import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { LocalServiceError } from './dynamodb-local';
import { findFreePort } from './free-port';

export const LOCAL_BUCKETS = ['toppubs-files'] as const;

/** CORS so the browser can PUT to presigned URLs from the app's origin, as the cloud bucket allows. */
function corsConfig(origins: readonly string[]): string {
  const rules = origins
    .map(
      (origin) =>
        `<CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}

export async function startS3Local(options: { dataDir: string; allowedOrigins: readonly string[] }) {
  mkdirSync(options.dataDir, { recursive: true });
  const port = await findFreePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: options.dataDir,
    configureBuckets: LOCAL_BUCKETS.map((name) => ({ name, configs: [corsConfig(options.allowedOrigins)] })),
  });
  try {
    await server.run();
  } catch (error) {
    throw new LocalServiceError('S3 emulator', `could not start: ${(error as Error).message}`, { cause: error });
  }
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
