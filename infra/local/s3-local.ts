import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
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
 */
export async function startS3Local(options: {
  dataDir: string;
  allowedOrigins: readonly string[];
  log?: (line: string) => void;
}) {
  mkdirSync(options.dataDir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    // Any free port, chosen when it binds, so no other process can take it in between.
    port: 0,
    silent: true,
    directory: options.dataDir,
    configureBuckets: LOCAL_BUCKETS.map((name) => ({ name, configs: [corsConfig(options.allowedOrigins)] })),
  });
  let upstreamPort: number;
  try {
    upstreamPort = (await server.run()).port;
  } catch (error) {
    throw new LocalServiceError('S3 emulator', `could not start: ${(error as Error).message}`, { cause: error });
  }
  let gateway: S3Gateway;
  try {
    gateway = await startS3Gateway({
      upstream: { host: '127.0.0.1', port: upstreamPort },
      directory: options.dataDir,
      allowedOrigins: options.allowedOrigins,
      credentials: LOCAL_S3_CREDENTIALS,
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (error) {
    await server.close().catch(() => undefined);
    throw new LocalServiceError('S3 emulator', `could not start its gateway: ${(error as Error).message}`, { cause: error });
  }
  return {
    endpoint: gateway.endpoint,
    stop: async () => {
      await gateway.close();
      await server.close();
    },
  };
}
