import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from '../../../shared/zod';
import { boundedRequestHandler } from '../aws-request-handler';
import { ConfigError } from '../config';
import { isDependencyUnavailable } from '../errors';
import { PaymentGatewayUnavailable } from './gateway';

/**
 * Braintree's API keys, read at run time from the Secrets Manager secret the deployment names
 * (BRAINTREE_SECRET_ARN): never in the environment, where every console user with Lambda read
 * access would see them. Read once per cold start; a failed read is tried again on the next call.
 */
export interface BraintreeCredentials {
  merchantId: string;
  publicKey: string;
  privateKey: string;
  environment: 'sandbox' | 'production';
}

const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));
const secretSchema = z.object({
  merchantId: nonEmpty(),
  publicKey: nonEmpty(),
  privateKey: nonEmpty(),
  environment: z.enum(['sandbox', 'production']),
});

// The region is the function's own (AWS_REGION, which Lambda sets), where the secret is kept.
// The SDK is loaded (secrets-manager-sdk.ts) by the first read, not at import.
let client: SecretsManagerClient | undefined;
async function secretsManager() {
  const sdk = await import('./secrets-manager-sdk');
  client ??= new sdk.SecretsManagerClient({
    maxAttempts: 2,
    requestHandler: boundedRequestHandler(5_000),
  });
  return { client, ...sdk };
}

const cached = new Map<string, Promise<BraintreeCredentials>>();

/** The keys in the secret; ConfigError when it is missing or malformed (our deployment is wrong). */
export function braintreeCredentials(secretArn: string): Promise<BraintreeCredentials> {
  let credentials = cached.get(secretArn);
  if (!credentials) {
    credentials = readCredentials(secretArn);
    cached.set(secretArn, credentials);
    credentials.catch(() => cached.delete(secretArn));
  }
  return credentials;
}

async function readCredentials(secretArn: string): Promise<BraintreeCredentials> {
  let secretString: string | undefined;
  try {
    const { client, GetSecretValueCommand } = await secretsManager();
    ({ SecretString: secretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn })));
  } catch (error) {
    // Throttled or out of reach: nothing was charged, the caller may try again. Anything else
    // (no such secret, no permission to read or decrypt it) is the deployment's mistake.
    if (isDependencyUnavailable(error)) throw new PaymentGatewayUnavailable(error);
    throw new ConfigError(`The Braintree secret ${secretArn} cannot be read: ${error instanceof Error ? error.name : 'error'}`, {
      cause: error,
    });
  }
  if (!secretString) throw new ConfigError(`The Braintree secret ${secretArn} holds no text (a JSON object is expected)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretString);
  } catch {
    // The parser's message quotes the text, which holds the keys: it is not passed on.
    throw new ConfigError(`The Braintree secret ${secretArn} is not JSON`);
  }
  const result = secretSchema.safeParse(parsed);
  if (!result.success)
    throw new ConfigError(`The Braintree secret ${secretArn} ${describeProblems(parsed, result.error.issues)}`);
  return result.data;
}

/** Which fields are missing or wrong, by name only: a value would be a key in the logs. */
function describeProblems(parsed: unknown, issues: readonly { path: readonly PropertyKey[] }[]): string {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || issues.some((issue) => issue.path.length === 0)) {
    return 'must be a JSON object with merchantId, publicKey, privateKey and environment';
  }
  const record = parsed as Record<string, unknown>;
  const fields = [...new Set(issues.map((issue) => String(issue.path[0])))];
  const isMissing = (field: string) => {
    const value = record[field];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  };
  const missing = fields.filter(isMissing);
  const invalid = fields.filter((field) => !isMissing(field));
  const parts = [
    ...(missing.length > 0 ? [`is missing ${missing.join(', ')}`] : []),
    ...(invalid.length > 0
      ? [
          `has an invalid ${invalid.join(', ')}${invalid.includes('environment') ? " (environment must be 'sandbox' or 'production')" : ''}`,
        ]
      : []),
  ];
  return parts.join(' and ');
}
