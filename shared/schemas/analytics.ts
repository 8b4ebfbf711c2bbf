import * as z from '../zod';

/**
 * Product analytics: the events the web app may track (mixpanel-browser, pointed at our own
 * ingestion routes), what the ingestion routes take and answer, and the superuser's figures.
 *
 * An event is accepted only when its name is in the catalogue and its own properties match it;
 * the properties mixpanel-browser adds by itself are kept only when listed in
 * ANALYTICS_KEPT_PROPERTIES, so nothing personal beyond the user id (no URL, referrer or
 * campaign) is ever stored.
 */

const count = z.int().check(z.minimum(0));
const shopId = z.string().check(z.minLength(1), z.maxLength(255));
export const UPSELL_REASONS = ['size', 'expiry', 'recipients', 'other'] as const;
export const CHECKOUT_STEPS = ['viewed', 'card-entered', 'submitted', 'paid', 'declined'] as const;
export const LOGIN_METHODS = ['google', 'email', 'twitter'] as const;
export const STOREFRONT_PAGES = ['shop', 'product', 'grade'] as const;
/** Why a login link could not be sent: the API answered with an error, or it could not be reached. */
export const LOGIN_LINK_FAILURES = ['server', 'network'] as const;

/** Every event the product tracks, by name, with the properties of its own (the common ones aside). */
export const ANALYTICS_EVENTS = {
  /** `route` is the route pattern (`/topic/:tag`), never the address: an address can hold a token. */
  'Page Viewed': z.strictObject({
    route: z.string().check(z.minLength(1), z.maxLength(255), z.startsWith('/')),
  }),
  Login: z.strictObject({ method: z.enum(LOGIN_METHODS), success: z.boolean() }),
  /** A login link that could not be sent (the spec: tracked only, no message): never the address. */
  'Login Link Failed': z.strictObject({ reason: z.enum(LOGIN_LINK_FAILURES) }),
  'Story Shared': z.strictObject({}),
  'Story Liked': z.strictObject({ liked: z.boolean() }),
  'User Followed': z.strictObject({ following: z.boolean() }),
  'Transfer Form Opened': z.strictObject({}),
  'Transfer Files Added': z.strictObject({ files: count, bytes: count }),
  'Transfer Send Clicked': z.strictObject({ files: count, recipients: count }),
  'Transfer Finalized': z.strictObject({ elapsedMs: count }),
  'Contacts Used': z.strictObject({ count }),
  'Pro Upsell Shown': z.strictObject({ reason: z.enum(UPSELL_REASONS) }),
  'Pro Upsell Clicked': z.strictObject({ reason: z.enum(UPSELL_REASONS) }),
  'Upgrade Started': z.strictObject({}),
  'Checkout Step': z.strictObject({ step: z.enum(CHECKOUT_STEPS) }),
  'Upgrade Completed': z.strictObject({}),
  'Storefront Viewed': z.strictObject({ page: z.enum(STOREFRONT_PAGES), shopId }),
  'Added To Cart': z.strictObject({ shopId, quantity: z.int().check(z.minimum(1)) }),
  Purchase: z.strictObject({
    shopId,
    amountMinor: count,
    currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'Use an ISO 4217 code such as EUR')),
  }),
} as const;

export type AnalyticsEventName = keyof typeof ANALYTICS_EVENTS;
/** The own properties of one event, as the web app passes them to `track(name, properties)`. */
export type AnalyticsEventProperties<N extends AnalyticsEventName> = z.input<(typeof ANALYTICS_EVENTS)[N]>;

export const isAnalyticsEventName = (name: string): name is AnalyticsEventName => Object.hasOwn(ANALYTICS_EVENTS, name);

/**
 * The properties mixpanel-browser adds that are stored, and the column each is stored as.
 * Everything else it sends ($current_url, $referrer, $initial_referrer, UTM parameters...) is
 * dropped on arrival.
 */
export const ANALYTICS_KEPT_PROPERTIES = {
  distinct_id: 'distinct_id',
  time: 'time',
  $insert_id: 'insert_id',
  $device_id: 'device_id',
  $user_id: 'user_id',
  mp_lib: 'lib',
  $lib_version: 'lib_version',
  $os: 'os',
  $browser: 'browser',
  $browser_version: 'browser_version',
  $screen_width: 'screen_width',
  $screen_height: 'screen_height',
  token: 'token',
} as const;

/**
 * One stored event, one NDJSON line: flat snake_case columns (what the Glue table reads), the
 * event's own properties as an object in `props`. `time` is when it happened (epoch
 * milliseconds, the browser's clock), `received_at` when it arrived (ISO, ours).
 */
export interface StoredAnalyticsEvent {
  event: AnalyticsEventName;
  time: number;
  distinct_id: string;
  insert_id: string;
  device_id?: string;
  user_id?: string;
  lib?: string;
  lib_version?: string;
  os?: string;
  browser?: string;
  browser_version?: string;
  screen_width?: number;
  screen_height?: number;
  token?: string;
  props: Record<string, string | number | boolean>;
  received_at: string;
}

/**
 * What mixpanel-browser posts (as an HTML form): `data`, its JSON payload, base64-encoded unless
 * it is configured with `api_payload_format: 'json'`. Its size is checked by the handler (413
 * makes mixpanel halve the batch), not here (a 400 would make it drop the batch).
 */
export const analyticsIngestBodySchema = z.strictObject({ data: z.string().check(z.minLength(1, 'Send the events in `data`')) });

/**
 * The query mixpanel-browser adds (`verbose=1&ip=1&_=<ms>`). Not strict: a parameter a later
 * mixpanel version adds must not turn every batch into a 400, which mixpanel would drop.
 */
export const analyticsIngestQuerySchema = z.object({
  verbose: z.optional(z.string()),
  ip: z.optional(z.string()),
  _: z.optional(z.string()),
});

/**
 * Mixpanel's verbose answer (`status: 1` is success), with what became of each event: any 200
 * makes mixpanel remove the batch from its queue, so a bad event is dropped, not retried.
 */
export const analyticsIngestAnswerSchema = z.strictObject({
  status: z.literal(1),
  error: z.null(),
  accepted: z.int(),
  dropped: z.int(),
});
export type AnalyticsIngestAnswer = z.infer<typeof analyticsIngestAnswerSchema>;

export const ANALYTICS_FIGURES_DEFAULT_DAYS = 30;
export const analyticsFiguresQuerySchema = z.strictObject({
  days: z._default(
    z.coerce
      .number({ message: 'Must be a number' })
      .check(z.int('Must be a whole number'), z.minimum(7, 'At least 7 days'), z.maximum(90, 'At most 90 days')),
    ANALYTICS_FIGURES_DEFAULT_DAYS,
  ),
});

export const FUNNEL_STEPS = ['Form opened', 'Files added', 'Send clicked', 'Finalized'] as const;
export type FunnelStepName = (typeof FUNNEL_STEPS)[number];

const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
const moneySchema = z.strictObject({ currency: z.string(), amountMinor: z.int() });

export const analyticsFiguresSchema = z.strictObject({
  /** When the newest daily aggregate read was written (ISO); null when there is none yet. */
  generatedAt: z.nullable(z.string()),
  /** One entry per day of the period, oldest first, zeros for a day without events. */
  days: z.array(z.strictObject({ date: isoDate, activeUsers: z.int(), events: z.int() })),
  funnel: z.strictObject({
    /** Distinct users reaching each step over the period, in FUNNEL_STEPS order. */
    steps: z.array(z.strictObject({ name: z.enum(FUNNEL_STEPS), users: z.int() })),
    /** Users finalizing over users opening the form, 0..1 (0 when nobody opened it). */
    conversion: z.number(),
  }),
  /** `Transfer Finalized` elapsed times over the period; null percentiles without any. */
  finalizeTiming: z.strictObject({ count: z.int(), p50Ms: z.nullable(z.number()), p90Ms: z.nullable(z.number()) }),
  upgrades: z.array(z.strictObject({ date: isoDate, started: z.int(), completed: z.int() })),
  storefront: z.array(z.strictObject({ date: isoDate, purchases: z.int(), revenue: z.array(moneySchema) })),
});
export type AnalyticsFigures = z.infer<typeof analyticsFiguresSchema>;
