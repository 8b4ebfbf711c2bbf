/**
 * What one function (a route's Lambda or a scheduled job) may do. The route table and the job
 * schedules declare it; the CDK app turns it into IAM grants and environment variables, and the
 * local runtime enforces the same declaration, so a handler that would be refused in AWS is
 * refused on one machine too.
 */

import type { QueueName } from './queues';

/**
 * Optional settings, in groups a handler declares by name. A group's variables reach only the
 * functions that declare it; secrets come from Secrets Manager at deploy time.
 */
export const SETTING_GROUPS = {
  google: { variables: ['GOOGLE_ISSUER', 'GOOGLE_CLIENT_ID', 'GOOGLE_REDIRECT_URI'], secrets: ['GOOGLE_CLIENT_SECRET'] },
  twitter: {
    variables: ['TWITTER_AUTHORIZE_URL', 'TWITTER_TOKEN_URL', 'TWITTER_USER_URL', 'TWITTER_CLIENT_ID', 'TWITTER_REDIRECT_URI'],
    secrets: ['TWITTER_CLIENT_SECRET'],
  },
  recaptcha: { variables: ['RECAPTCHA_PROJECT_ID', 'RECAPTCHA_SITE_KEY'], secrets: ['RECAPTCHA_API_KEY'] },
  /** Publication suggestions: the follower count from which one is accepted without review. */
  sources: { variables: ['SUGGESTION_AUTO_ACCEPT_FOLLOWERS'], secrets: [] },
} as const satisfies Record<string, { variables: readonly string[]; secrets: readonly string[] }>;

export type SettingGroup = keyof typeof SETTING_GROUPS;
export type SettingName = {
  [G in SettingGroup]: (typeof SETTING_GROUPS)[G]['variables'][number] | (typeof SETTING_GROUPS)[G]['secrets'][number];
}[SettingGroup];

/**
 * The variable listing the setting groups a function was given. Config reads a group only when
 * it is listed here, so reading a group the route never declared fails the same way in AWS and
 * locally, instead of quietly looking "not configured".
 */
export const DECLARED_SETTINGS_VARIABLE = 'DECLARED_SETTINGS';

export type TableAccess = 'read' | 'read-write';
export type BucketAccess = 'none' | 'read' | 'write' | 'read-write';
/**
 * What a function may do with merchants' own gateway keys (functions/lib/payments/merchant-keys.ts):
 * nothing, seal them (encrypt keys a merchant just connected), or open them too (decrypt, to call
 * the merchant's gateway). 'open' implies 'seal'.
 */
export type MerchantKeysAccess = 'none' | 'seal' | 'open';
/**
 * What a function may do with product analytics events: nothing, put events on the delivery
 * stream ('put': the ingestion routes), read the daily aggregates ('read': the figures route),
 * or read the stored events and write the aggregates ('aggregate': the analytics job).
 */
export type AnalyticsAccess = 'none' | 'put' | 'read' | 'aggregate';

export interface Capabilities {
  /**
   * DynamoDB access to the product's table. Every route reads it (the pipeline resolves the
   * caller's session); read-only functions get no write actions at all.
   */
  table: TableAccess;
  /** Sends email through SES (and gets the sender address). */
  email: boolean;
  /** Access to the file bucket (presigned uploads and downloads). */
  bucket: BucketAccess;
  /**
   * Pushes messages to people's open realtime connections (the WebSocket API's management API):
   * the endpoint it posts to, and in AWS execute-api:ManageConnections on that API only.
   */
  realtime: boolean;
  /**
   * Calls the payment gateway: in AWS, reads the Braintree keys' secret at run time (and nothing
   * else of Secrets Manager); locally, reaches the local gateway.
   */
  payments: boolean;
  /**
   * Merchants' own Braintree keys, encrypted at rest: in AWS, kms:GenerateDataKey on the merchant
   * keys' KMS key ('seal'), plus kms:Decrypt on it ('open'); locally, the same refusal of an open
   * by a 'seal'-only function. Also where a merchant's local test gateway is (locally only).
   */
  merchantKeys: MerchantKeysAccess;
  /** Product analytics events and their daily aggregates (see AnalyticsAccess). */
  analytics: AnalyticsAccess;
  /** Work queues (shared/queues.ts) it sends messages to: their URLs, and in AWS sqs:SendMessage on them only. */
  queues: readonly QueueName[];
  /** Optional setting groups the function reads. */
  settings: readonly SettingGroup[];
}

export type CapabilityDeclaration = Partial<Capabilities>;

/** A declaration with every field filled: absent means "may not". */
export function capabilitiesOf(declared: CapabilityDeclaration, defaults: Pick<Capabilities, 'table'>): Capabilities {
  return {
    table: declared.table ?? defaults.table,
    email: declared.email ?? false,
    bucket: declared.bucket ?? 'none',
    realtime: declared.realtime ?? false,
    payments: declared.payments ?? false,
    merchantKeys: declared.merchantKeys ?? 'none',
    analytics: declared.analytics ?? 'none',
    queues: declared.queues ?? [],
    settings: declared.settings ?? [],
  };
}

export const tableAllowsWrites = (capabilities: Capabilities): boolean => capabilities.table === 'read-write';

/** Whether a function may open (decrypt) merchants' keys, and not only seal them. */
export const mayOpenMerchantKeys = (capabilities: Pick<Capabilities, 'merchantKeys'>): boolean =>
  capabilities.merchantKeys === 'open';
