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
  /**
   * Origins of the sibling apps that may sign in through single sign-on (SSO_APP_ORIGINS, a
   * comma list). Defaults to the web origin alone.
   */
  ssoAppOrigins: readonly string[];
  /**
   * Realtime channel credentials (PUSHER_APP_KEY, PUSHER_SECRET). Locally, when unset, a fixed
   * development pair (LOCAL_PUSHER_*); in AWS absent means realtime auth answers 503.
   */
  pusher: { key: string; secret: string } | undefined;
  /**
   * reCAPTCHA Enterprise for the login bot check (RECAPTCHA_PROJECT_ID, RECAPTCHA_API_KEY,
   * RECAPTCHA_SITE_KEY). All optional: without a project id the bot check answers "human"
   * (functions/account/lib/recaptcha-assessors.ts says why). In AWS the API key comes from Secrets Manager
   * into the environment; only the environment is read here.
   */
  recaptchaProjectId: string | undefined;
  recaptchaApiKey: string | undefined;
  recaptchaSiteKey: string | undefined;
  /**
   * Google login (OpenID Connect): GOOGLE_ISSUER, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET,
   * GOOGLE_REDIRECT_URI. All optional: until all four are set, Google login answers 503. Locally
   * the runtime points them at its mock provider; in AWS the secret comes from Secrets Manager
   * into the environment.
   */
  googleIssuer: string | undefined;
  googleClientId: string | undefined;
  googleClientSecret: string | undefined;
  googleRedirectUri: string | undefined;
  /**
   * Twitter-style login (plain OAuth 2.0 with PKCE, no ID token): TWITTER_AUTHORIZE_URL,
   * TWITTER_TOKEN_URL, TWITTER_USER_URL, TWITTER_CLIENT_ID, TWITTER_CLIENT_SECRET,
   * TWITTER_REDIRECT_URI. All optional: until all six are set, Twitter login answers 503.
   * Locally the runtime points them at its mock provider.
   */
  twitterAuthorizeUrl: string | undefined;
  twitterTokenUrl: string | undefined;
  twitterUserUrl: string | undefined;
  twitterClientId: string | undefined;
  twitterClientSecret: string | undefined;
  twitterRedirectUri: string | undefined;
}

/** Local-only development credentials for the realtime channel: never used outside stage 'local'. */
export const LOCAL_PUSHER_APP_KEY = 'local-dev-pusher-key';
export const LOCAL_PUSHER_SECRET = 'local-dev-pusher-secret-not-for-production';

const commaList = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** 'https://app.example.com/' -> 'https://app.example.com': origins are compared exactly. */
function toOrigin(value: string): string {
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    throw new ConfigError(`SSO_APP_ORIGINS holds '${value}', which is not an origin like https://app.example.com`);
  }
  if (origin === 'null') throw new ConfigError(`SSO_APP_ORIGINS holds '${value}', which is not an http(s) origin`);
  return origin;
}

function loadPusher(env: NodeJS.ProcessEnv, stage: string): Config['pusher'] {
  const key = env.PUSHER_APP_KEY?.trim();
  const secret = env.PUSHER_SECRET?.trim();
  if (key && secret) return { key, secret };
  if (key || secret) throw new ConfigError('Set both PUSHER_APP_KEY and PUSHER_SECRET, or neither');
  return stage === 'local' ? { key: LOCAL_PUSHER_APP_KEY, secret: LOCAL_PUSHER_SECRET } : undefined;
}

export function requireEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`Missing required environment variable ${name}`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const stage = env.STAGE ?? 'local';
  const webOrigin = env.WEB_ORIGIN ?? requireEnv('ALLOWED_ORIGINS', env).split(',')[0]!.trim();
  const ssoAppOrigins = commaList(env.SSO_APP_ORIGINS ?? '').map(toOrigin);
  return {
    stage,
    tableName: requireEnv('TABLE_NAME', env),
    allowedOrigins: requireEnv('ALLOWED_ORIGINS', env)
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    dynamoDbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'us-east-1',
    sessionCookieDomain: env.SESSION_COOKIE_DOMAIN || undefined,
    webOrigin,
    mailFrom: env.MAIL_FROM ?? 'TopPubs <login@toppubs.example>',
    mailOutboxDir: env.MAIL_OUTBOX_DIR || undefined,
    ssoAppOrigins: ssoAppOrigins.length > 0 ? ssoAppOrigins : [webOrigin],
    pusher: loadPusher(env, stage),
    recaptchaProjectId: env.RECAPTCHA_PROJECT_ID?.trim() || undefined,
    recaptchaApiKey: env.RECAPTCHA_API_KEY?.trim() || undefined,
    recaptchaSiteKey: env.RECAPTCHA_SITE_KEY?.trim() || undefined,
    googleIssuer: env.GOOGLE_ISSUER?.trim() || undefined,
    googleClientId: env.GOOGLE_CLIENT_ID?.trim() || undefined,
    googleClientSecret: env.GOOGLE_CLIENT_SECRET?.trim() || undefined,
    googleRedirectUri: env.GOOGLE_REDIRECT_URI?.trim() || undefined,
    twitterAuthorizeUrl: env.TWITTER_AUTHORIZE_URL?.trim() || undefined,
    twitterTokenUrl: env.TWITTER_TOKEN_URL?.trim() || undefined,
    twitterUserUrl: env.TWITTER_USER_URL?.trim() || undefined,
    twitterClientId: env.TWITTER_CLIENT_ID?.trim() || undefined,
    twitterClientSecret: env.TWITTER_CLIENT_SECRET?.trim() || undefined,
    twitterRedirectUri: env.TWITTER_REDIRECT_URI?.trim() || undefined,
  };
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}
