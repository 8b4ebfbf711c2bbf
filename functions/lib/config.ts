import { type AnalyticsAccess, DECLARED_SETTINGS_VARIABLE, SETTING_GROUPS, type SettingGroup } from '../../shared/capabilities';
import { functionEnvironment } from './function-environment';
import { type QueueName, workQueue } from '../../shared/queues';

/**
 * The one place that reads the environment. Handlers call `getConfig()` at module scope, so a
 * missing variable fails the cold start loudly instead of surfacing as a confusing 500 later.
 * Optional settings are read lazily and only from the groups the function declared (its
 * route's capabilities): reading another group throws, in AWS and locally alike, rather than
 * looking "not configured" (which is how a setting that never reached a function used to hide).
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A function read a setting group its route does not declare, so the deployment never gave it one. */
export class SettingNotDeclared extends ConfigError {
  constructor(readonly group: SettingGroup) {
    super(
      `This function reads the '${group}' settings but its route does not declare them: add '${group}' to the route's capabilities.settings.`,
    );
  }
}

export interface Config {
  stage: string;
  tableName: string;
  /** Origins allowed to call with credentials (CORS) and to make state-changing calls. */
  allowedOrigins: readonly string[];
  /** Set only locally and in tests, to reach DynamoDB Local. */
  dynamoDbEndpoint: string | undefined;
  /**
   * Let the server fetch pages on loopback and private addresses (FETCH_PRIVATE_ADDRESSES=true):
   * the local runtime and tests serve their pages on 127.0.0.1. Refused in every other stage, so
   * a deployment can never be pointed at its own network through a shared url.
   */
  fetchPrivateAddresses: boolean;
  /**
   * Locally only (SOURCE_FIXTURE_ORIGIN, an http(s) origin): the publication sources are read
   * from this fixture server instead of the web, so the collector and previews run offline.
   * Refused in every other stage, like FETCH_PRIVATE_ADDRESSES, which it needs.
   */
  sourceFixtureOrigin: string | undefined;
  region: string;
  /** Parent domain of the sibling apps, for the session cookie (single sign-on); absent locally. */
  sessionCookieDomain: string | undefined;
  /** Where login links point: the web app's origin. */
  webOrigin: string;
  /**
   * In AWS: what CloudFront sends the API with every request it forwards, so a function may
   * trust the viewer address it adds (functions/lib/http/client-address.ts). Absent locally,
   * where the socket's address is the client's.
   */
  edgeOriginToken: string | undefined;
  /** Sender address of emails: given only to functions with the email capability. */
  mailFrom: string;
  /**
   * Sender address of transfer emails (files sent to a recipient): TRANSFER_MAIL_FROM when set,
   * else MAIL_FROM's name at `transfers@` its domain ('TopPubs <transfers@toppubs.example>'), so
   * a recipient sees the files come from the transfer service, not from the login mailbox.
   * Email capability only, like mailFrom.
   */
  transferMailFrom: string;
  /** Locally: the folder that captures outgoing mail instead of SES (email capability only). */
  mailOutboxDir: string | undefined;
  /** In AWS: the SES configuration set every send names, publishing bounces and complaints. */
  mailConfigurationSet: string | undefined;
  /**
   * The WebSocket URL browsers open for live updates (REALTIME_URL): the WebSocket API's stage
   * URL in AWS, the local runtime's own port locally.
   */
  realtimeUrl: string;
  /**
   * The management API that pushes to open connections (REALTIME_MANAGEMENT_ENDPOINT): given
   * only to functions with the realtime capability.
   */
  realtimeManagementEndpoint: string;
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
  /**
   * Followers from which a suggested publication is accepted without a superuser's review
   * (SUGGESTION_AUTO_ACCEPT_FOLLOWERS, a whole number; DEFAULT_AUTO_ACCEPT_FOLLOWERS when unset).
   * A feed, which counts no followers, always waits for review.
   */
  suggestionAutoAcceptFollowers: number;
  /** Locally only (SQS_ENDPOINT): the SQS emulator the work queues live in. */
  sqsEndpoint: string | undefined;
  /** The file bucket (FILE_BUCKET_NAME): given only to functions with a bucket capability. */
  fileBucketName: string;
  /** Locally only (S3_ENDPOINT): the S3 emulator standing in for the file bucket. */
  s3Endpoint: string | undefined;
  /**
   * Where the payment gateway is (functions with the payments capability only): Braintree, with
   * its keys in a Secrets Manager secret read at run time (PAYMENT_GATEWAY=braintree,
   * BRAINTREE_SECRET_ARN), or the local gateway of `npm start` (PAYMENT_GATEWAY=local,
   * PAYMENT_GATEWAY_URL).
   */
  paymentGateway: PaymentGatewaySettings;
  /**
   * How merchants' own gateway keys are sealed and opened (functions with the merchantKeys
   * capability only): KMS envelope encryption with the key the data stack makes
   * (MERCHANT_KEYS=kms, MERCHANT_KEYS_KMS_KEY_ARN), or locally a key-encryption key in a file
   * under the data folder (MERCHANT_KEYS=local, MERCHANT_KEYS_FILE) with the function's mode
   * (MERCHANT_KEYS_MODE, 'seal' or 'open'). Any other function gets a ConfigError.
   */
  merchantKeys: MerchantKeySettings;
  /**
   * Locally only (MERCHANT_GATEWAY_URL, functions with the merchantKeys capability): the local
   * payment gateway that merchants connected with environment 'local' use. Undefined in AWS,
   * where such keys are refused.
   */
  merchantGatewayUrl: string | undefined;
  /**
   * The URL of a work queue this function sends to (shared/queues.ts). Only functions whose
   * capabilities name the queue are given it; any other gets a ConfigError saying so.
   */
  queueUrl(name: QueueName): string;
  /**
   * Product analytics (functions with the analytics capability only): ANALYTICS_ACCESS (the
   * function's own capability), ANALYTICS_BUCKET_NAME, ANALYTICS_STREAM_NAME (the Firehose
   * delivery stream), and locally FIREHOSE_ENDPOINT and ANALYTICS_S3_ENDPOINT (the emulators).
   * Any other function gets a ConfigError.
   */
  analytics: AnalyticsSettings;
}

export interface AnalyticsSettings {
  access: Exclude<AnalyticsAccess, 'none'>;
  bucketName: string;
  deliveryStreamName: string;
  /** Locally only: the Firehose stand-in. */
  firehoseEndpoint: string | undefined;
  /** Locally only: the S3 emulator holding the analytics bucket. */
  s3Endpoint: string | undefined;
}

/** A function used analytics without the capability: the deployment never gave it the stream or the bucket. */
export class AnalyticsNotDeclared extends ConfigError {
  constructor() {
    super(
      "This function uses product analytics but does not declare it (ANALYTICS_ACCESS is not set): add analytics: 'put', 'read' or 'aggregate' to its capabilities.",
    );
  }
}

const ANALYTICS_ACCESS_MODES: readonly string[] = ['put', 'read', 'aggregate'] satisfies AnalyticsAccess[];

function loadAnalytics(env: Environment, stage: string): AnalyticsSettings {
  const access = env.ANALYTICS_ACCESS?.trim();
  if (!access) throw new AnalyticsNotDeclared();
  if (!ANALYTICS_ACCESS_MODES.includes(access))
    throw new ConfigError(`ANALYTICS_ACCESS must be 'put', 'read' or 'aggregate', not '${access}'`);
  const localOnly = (name: string): string | undefined => {
    const value = env[name]?.trim() || undefined;
    if (value !== undefined && stage !== 'local')
      throw new ConfigError(`${name} is for the local runtime only, not stage '${stage}'`);
    return value;
  };
  return {
    access: access as AnalyticsSettings['access'],
    bucketName: requireEnv('ANALYTICS_BUCKET_NAME', env),
    deliveryStreamName: requireEnv('ANALYTICS_STREAM_NAME', env),
    firehoseEndpoint: localOnly('FIREHOSE_ENDPOINT'),
    s3Endpoint: localOnly('ANALYTICS_S3_ENDPOINT'),
  };
}

export type PaymentGatewaySettings = { kind: 'braintree'; secretArn: string } | { kind: 'local'; url: string };

export type MerchantKeysMode = 'seal' | 'open';
export type MerchantKeySettings = { kind: 'kms'; keyArn: string } | { kind: 'local'; keyFile: string; mode: MerchantKeysMode };

/** A function sealed or opened merchant keys without the capability: the deployment never gave it the key. */
export class MerchantKeysNotDeclared extends ConfigError {
  constructor() {
    super(
      "This function seals or opens merchants' gateway keys but does not declare it (MERCHANT_KEYS is not set): add merchantKeys: 'seal' or 'open' to its capabilities.",
    );
  }
}

function loadMerchantKeys(env: Environment, stage: string): MerchantKeySettings {
  const kind = env.MERCHANT_KEYS?.trim();
  if (!kind) throw new MerchantKeysNotDeclared();
  if (kind === 'kms') return { kind, keyArn: requireEnv('MERCHANT_KEYS_KMS_KEY_ARN', env) };
  if (kind === 'local') {
    if (stage !== 'local') throw new ConfigError(`MERCHANT_KEYS=local is for the local runtime only, not stage '${stage}'`);
    const mode = requireEnv('MERCHANT_KEYS_MODE', env);
    if (mode !== 'seal' && mode !== 'open') throw new ConfigError(`MERCHANT_KEYS_MODE must be 'seal' or 'open', not '${mode}'`);
    return { kind, keyFile: requireEnv('MERCHANT_KEYS_FILE', env), mode };
  }
  throw new ConfigError(`MERCHANT_KEYS must be 'kms' or 'local', not '${kind}'`);
}

function loadMerchantGatewayUrl(env: Environment, stage: string): string | undefined {
  const value = env.MERCHANT_GATEWAY_URL?.trim();
  if (!value) return undefined;
  if (stage !== 'local') throw new ConfigError(`MERCHANT_GATEWAY_URL is for the local runtime only, not stage '${stage}'`);
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new ConfigError(`MERCHANT_GATEWAY_URL must be an http(s) URL, not '${value}'`);
  }
  return value;
}

function loadPaymentGateway(env: Environment): PaymentGatewaySettings {
  const kind = requireEnv('PAYMENT_GATEWAY', env);
  if (kind === 'braintree') return { kind, secretArn: requireEnv('BRAINTREE_SECRET_ARN', env) };
  if (kind === 'local') return { kind, url: requireEnv('PAYMENT_GATEWAY_URL', env) };
  throw new ConfigError(`PAYMENT_GATEWAY must be 'braintree' or 'local', not '${kind}'`);
}

/** A function sent to a work queue its capabilities do not name, so the deployment never gave it the queue. */
export class QueueNotDeclared extends ConfigError {
  constructor(readonly queue: QueueName) {
    super(
      `This function sends to the '${queue}' queue but its capabilities do not name it: add '${queue}' to its capabilities.queues.`,
    );
  }
}

/** An established publication: suggesting it needs no review. */
export const DEFAULT_AUTO_ACCEPT_FOLLOWERS = 1_000;

function parseFollowerFloor(value: string | undefined): number {
  if (value === undefined) return DEFAULT_AUTO_ACCEPT_FOLLOWERS;
  const floor = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(floor)) {
    throw new ConfigError(`SUGGESTION_AUTO_ACCEPT_FOLLOWERS must be a whole number of followers, not '${value}'`);
  }
  return floor;
}

const commaList = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function loadFetchPrivateAddresses(env: Environment, stage: string): boolean {
  const value = env.FETCH_PRIVATE_ADDRESSES?.trim();
  if (!value || value === 'false') return false;
  if (value !== 'true') throw new ConfigError("FETCH_PRIVATE_ADDRESSES must be 'true' or 'false'");
  if (stage !== 'local') throw new ConfigError(`FETCH_PRIVATE_ADDRESSES is for the local runtime only, not stage '${stage}'`);
  return true;
}

function loadSourceFixtureOrigin(env: Environment, stage: string, fetchPrivateAddresses: boolean): string | undefined {
  const value = env.SOURCE_FIXTURE_ORIGIN?.trim();
  if (!value) return undefined;
  if (stage !== 'local') throw new ConfigError(`SOURCE_FIXTURE_ORIGIN is for the local runtime only, not stage '${stage}'`);
  let origin: string;
  try {
    const parsed = new URL(value);
    origin = /^https?:$/.test(parsed.protocol) && parsed.pathname === '/' && !parsed.search ? parsed.origin : '';
  } catch {
    origin = '';
  }
  if (!origin)
    throw new ConfigError(`SOURCE_FIXTURE_ORIGIN must be an http(s) origin such as http://127.0.0.1:4010, not '${value}'`);
  // A fixture server on this machine is a private address: without this, every read is refused.
  if (!fetchPrivateAddresses) throw new ConfigError('SOURCE_FIXTURE_ORIGIN needs FETCH_PRIVATE_ADDRESSES=true');
  return origin;
}

export function requireEnv(name: string, env: Environment = process.env): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`Missing required environment variable ${name}`);
  }
  return value;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** Settings read on first use, each once; a group's values only when the function declared it. */
function lazy<T>(read: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = read();
      done = true;
    }
    return value;
  };
}

/**
 * Another mailbox at a sender's domain, under the same name: ('transfers', 'TopPubs
 * <login@toppubs.example>') is 'TopPubs <transfers@toppubs.example>'.
 */
export function senderAt(localPart: string, from: string): string {
  const match = /^(.*?)<([^<>@\s]+)@([^<>@\s]+)>\s*$/.exec(from) ?? /^()([^<>@\s]+)@([^<>@\s]+)$/.exec(from.trim());
  if (!match) throw new ConfigError(`MAIL_FROM is not an address: ${from}`);
  const name = (match[1] ?? '').trim();
  const address = `${localPart}@${match[3] ?? ''}`;
  return name ? `${name} <${address}>` : address;
}

export function loadConfig(env: Environment = process.env): Config {
  const stage = env.STAGE ?? 'local';
  const allowedOrigins = requireEnv('ALLOWED_ORIGINS', env)
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const webOrigin = env.WEB_ORIGIN ?? allowedOrigins[0] ?? '';
  const declared = new Set(commaList(env[DECLARED_SETTINGS_VARIABLE] ?? ''));
  const setting = (group: SettingGroup, name: string): string | undefined => {
    if (!declared.has(group)) throw new SettingNotDeclared(group);
    if (
      !(SETTING_GROUPS[group] as { variables: readonly string[]; secrets: readonly string[] }).variables
        .concat(SETTING_GROUPS[group].secrets)
        .includes(name)
    ) {
      throw new ConfigError(`${name} is not one of the '${group}' settings`);
    }
    return env[name]?.trim() || undefined;
  };
  const realtimeManagementEndpoint = lazy(() => requireEnv('REALTIME_MANAGEMENT_ENDPOINT', env));
  const mailFrom = lazy(() => requireEnv('MAIL_FROM', env));
  const fileBucketName = lazy(() => requireEnv('FILE_BUCKET_NAME', env));
  const paymentGateway = lazy(() => loadPaymentGateway(env));
  const merchantKeys = lazy(() => loadMerchantKeys(env, stage));
  const merchantGatewayUrl = lazy(() => {
    merchantKeys();
    return loadMerchantGatewayUrl(env, stage);
  });
  const fetchPrivateAddresses = loadFetchPrivateAddresses(env, stage);
  const analytics = lazy(() => loadAnalytics(env, stage));
  return {
    stage,
    tableName: requireEnv('TABLE_NAME', env),
    allowedOrigins,
    dynamoDbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    fetchPrivateAddresses,
    sourceFixtureOrigin: loadSourceFixtureOrigin(env, stage, fetchPrivateAddresses),
    region: env.AWS_REGION ?? 'us-east-1',
    sessionCookieDomain: env.SESSION_COOKIE_DOMAIN || undefined,
    webOrigin,
    edgeOriginToken: env.EDGE_ORIGIN_TOKEN || undefined,
    get mailFrom() {
      return mailFrom();
    },
    get transferMailFrom() {
      return env.TRANSFER_MAIL_FROM?.trim() || senderAt('transfers', mailFrom());
    },
    get mailOutboxDir() {
      mailFrom();
      return env.MAIL_OUTBOX_DIR || undefined;
    },
    /** The SES configuration set every send names: it publishes bounces and complaints. */
    get mailConfigurationSet() {
      mailFrom();
      return env.MAIL_CONFIGURATION_SET || undefined;
    },
    get fileBucketName() {
      return fileBucketName();
    },
    get s3Endpoint() {
      fileBucketName();
      return env.S3_ENDPOINT || undefined;
    },
    get realtimeUrl() {
      return requireEnv('REALTIME_URL', env);
    },
    get realtimeManagementEndpoint() {
      return realtimeManagementEndpoint();
    },
    get recaptchaProjectId() {
      return setting('recaptcha', 'RECAPTCHA_PROJECT_ID');
    },
    get recaptchaApiKey() {
      return setting('recaptcha', 'RECAPTCHA_API_KEY');
    },
    get recaptchaSiteKey() {
      return setting('recaptcha', 'RECAPTCHA_SITE_KEY');
    },
    get googleIssuer() {
      return setting('google', 'GOOGLE_ISSUER');
    },
    get googleClientId() {
      return setting('google', 'GOOGLE_CLIENT_ID');
    },
    get googleClientSecret() {
      return setting('google', 'GOOGLE_CLIENT_SECRET');
    },
    get googleRedirectUri() {
      return setting('google', 'GOOGLE_REDIRECT_URI');
    },
    get twitterAuthorizeUrl() {
      return setting('twitter', 'TWITTER_AUTHORIZE_URL');
    },
    get twitterTokenUrl() {
      return setting('twitter', 'TWITTER_TOKEN_URL');
    },
    get twitterUserUrl() {
      return setting('twitter', 'TWITTER_USER_URL');
    },
    get twitterClientId() {
      return setting('twitter', 'TWITTER_CLIENT_ID');
    },
    get twitterClientSecret() {
      return setting('twitter', 'TWITTER_CLIENT_SECRET');
    },
    get twitterRedirectUri() {
      return setting('twitter', 'TWITTER_REDIRECT_URI');
    },
    get suggestionAutoAcceptFollowers() {
      return parseFollowerFloor(setting('sources', 'SUGGESTION_AUTO_ACCEPT_FOLLOWERS'));
    },
    get paymentGateway() {
      return paymentGateway();
    },
    get merchantKeys() {
      return merchantKeys();
    },
    get merchantGatewayUrl() {
      return merchantGatewayUrl();
    },
    sqsEndpoint: env.SQS_ENDPOINT || undefined,
    queueUrl(name: QueueName) {
      const url = env[workQueue(name).urlVariable]?.trim();
      if (!url) throw new QueueNotDeclared(name);
      return url;
    },
    get analytics() {
      return analytics();
    },
  };
}

// One config per function environment: in AWS that is process.env, once per cold start; the
// local runtime gives every route its own environment object.
const cached = new WeakMap<object, Config>();

export function getConfig(): Config {
  const env = functionEnvironment();
  let config = cached.get(env);
  if (!config) {
    config = loadConfig(env);
    cached.set(env, config);
  }
  return config;
}
