/**
 * The one place that reads the environment. Handlers call `getConfig()` at module scope, so a
 * missing variable fails the cold start loudly instead of surfacing as a confusing 500 later.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface Config {
  stage: string;
  tableName: string;
  /** Origins allowed to call with credentials (CORS) and to make state-changing calls. */
  allowedOrigins: readonly string[];
  /** Set only locally and in tests, to reach DynamoDB Local. */
  dynamoDbEndpoint: string | undefined;
  region: string;
  /** Parent domain of the sibling apps, for the session cookie (single sign-on); absent locally. */
  sessionCookieDomain: string | undefined;
  /** Where login links point: the web app's origin. */
  webOrigin: string;
  /** Sender address of login emails. */
  mailFrom: string;
  /** Locally: the folder that captures outgoing mail instead of SES. */
  mailOutboxDir: string | undefined;
}

export function requireEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`Missing required environment variable ${name}`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    stage: env.STAGE ?? 'local',
    tableName: requireEnv('TABLE_NAME', env),
    allowedOrigins: requireEnv('ALLOWED_ORIGINS', env)
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    dynamoDbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'us-east-1',
    sessionCookieDomain: env.SESSION_COOKIE_DOMAIN || undefined,
    webOrigin: env.WEB_ORIGIN ?? requireEnv('ALLOWED_ORIGINS', env).split(',')[0]!.trim(),
    mailFrom: env.MAIL_FROM ?? 'TopPubs <login@toppubs.example>',
    mailOutboxDir: env.MAIL_OUTBOX_DIR || undefined,
  };
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}
