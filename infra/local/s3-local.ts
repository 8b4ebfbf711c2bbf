import { mkdirSync } from 'node:fs';
import type S3rver from 's3rver';
import { LocalServiceError } from './dynamodb-local';
import { CORS_RULE, type S3Credentials, type S3Gateway, startS3Gateway, xmlEscape } from './s3-gateway';

/** The file bucket (first) and the analytics events bucket. */
export const LOCAL_BUCKETS = ['toppubs-files', 'toppubs-analytics'] as const;
export const LOCAL_ANALYTICS_BUCKET = LOCAL_BUCKETS[1];

/** The keys the local runtime gives every function (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY). */
export const LOCAL_S3_CREDENTIALS: S3Credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The bucket's CORS rules as s3rver records them, so GetBucketCors tells the rules the gateway
 * applies (the gateway answers CORS itself: s3rver would allow `*` and expose no ETag).
 */
function corsConfig(origins: readonly string[]): string {
  const methods = CORS_RULE.allowedMethods.map((method) => `<AllowedMethod>${method}</AllowedMethod>`).join('');
  const exposed = CORS_RULE.exposeHeaders.map((header) => `<ExposeHeader>${header}</ExposeHeader>`).join('');
  const rules = origins
    .map(
      (origin) =>
        `<CORSRule><AllowedOrigin>${xmlEscape(origin)}</AllowedOrigin>${methods}<AllowedHeader>*</AllowedHeader>${exposed}<MaxAgeSeconds>${CORS_RULE.maxAgeSeconds}</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}

/**
 * The S3 stand-in: s3rver keeps the objects, on a loopback port of its own, and a gateway in front
 * of it (the endpoint everyone uses) answers as S3 does where s3rver does not: signatures, POST
 * policies, ListParts and AbortMultipartUpload, multipart ETags, CORS.
 *
 * The gateway listens from the start; s3rver (Koa and Winston under it) is loaded and started for
 * the first request that reaches it. It was a fifth of a second of every test file's fork and
 * every `npm start`, and most test files never touch a bucket. A failed start is logged, answered
 * 503 and tried again on the next request.
 */
export async function startS3Local(options: {
  dataDir: string;
  allowedOrigins: readonly string[];
  log?: (line: string) => void;
}) {
  mkdirSync(options.dataDir, { recursive: true });
  const startUpstream = async (): Promise<{ server: S3rver; port: number }> => {
    try {
      const { default: S3rverServer } = await import('s3rver');
      const server = new S3rverServer({
        address: '127.0.0.1',
        // Any free port, chosen when it binds, so no other process can take it in between.
        port: 0,
        silent: true,
        directory: options.dataDir,
        configureBuckets: LOCAL_BUCKETS.map((name) => ({ name, configs: [corsConfig(options.allowedOrigins)] })),
      });
      return { server, port: (await server.run()).port };
    } catch (error) {
      throw new LocalServiceError('S3 emulator', `could not start: ${(error as Error).message}`, { cause: error });
    }
  };
  let upstream: Promise<{ server: S3rver; port: number }> | undefined;
  const upstreamAddress = async () => {
    upstream ??= startUpstream().catch((error: unknown) => {
      upstream = undefined;
      options.log?.((error as Error).message);
      throw error;
    });
    return { host: '127.0.0.1', port: (await upstream).port };
  };
  let gateway: S3Gateway;
  try {
    gateway = await startS3Gateway({
      upstream: upstreamAddress,
      directory: options.dataDir,
      allowedOrigins: options.allowedOrigins,
      credentials: LOCAL_S3_CREDENTIALS,
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (error) {
    throw new LocalServiceError('S3 emulator', `could not start its gateway: ${(error as Error).message}`, { cause: error });
  }
  return {
    endpoint: gateway.endpoint,
    stop: async () => {
      await gateway.close();
      const started = await upstream?.catch(() => undefined);
      await started?.server.close();
    },
  };
}
