import {
  ANALYTICS_EVENTS,
  ANALYTICS_KEPT_PROPERTIES,
  isAnalyticsEventName,
  type StoredAnalyticsEvent,
} from '../../../shared/schemas/analytics';

/** mixpanel-browser truncates every string to 255 characters; a client that does not is truncated here. */
export const MAX_STRING_LENGTH = 255;

export type EventVerdict = { kept: StoredAnalyticsEvent } | { dropped: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const truncate = (value: string) => (value.length > MAX_STRING_LENGTH ? value.slice(0, MAX_STRING_LENGTH) : value);

type KeptName = keyof typeof ANALYTICS_KEPT_PROPERTIES;
const KEPT_NAMES = Object.keys(ANALYTICS_KEPT_PROPERTIES) as KeptName[];
const NUMERIC_COLUMNS = new Set<KeptName>(['$screen_width', '$screen_height']);

/** Event times are taken from a day ahead of arrival (clock skew) to 30 days back (an offline browser's queue). */
export const MAX_FUTURE_MS = 86_400_000;
export const MAX_PAST_MS = 30 * 86_400_000;

/** Something@something.tld anywhere in a value: an email address, which is never stored. */
const EMAIL_SHAPED = /[^\s@]+@[^\s@]+\.[^\s@]+/;
export const isEmailShaped = (value: string): boolean => EMAIL_SHAPED.test(value);

/** A route as stored: its path only, never a query or fragment (`/login?token=…` is `/login`). */
const pathOf = (route: string) => route.replace(/[?#].*$/s, '');

/** An id of mixpanel's (distinct_id, $insert_id): a non-empty string. */
function requiredId(properties: Record<string, unknown>, name: string): string | undefined {
  const value = properties[name];
  return typeof value === 'string' && value.trim() !== '' ? truncate(value) : undefined;
}

/**
 * One event as it is stored, or why it is dropped: an unknown name, an own property that does
 * not match the catalogue, a missing id or time, a time outside the window around arrival, or
 * an email address as distinct_id. Only the catalogue's own properties and the listed common
 * ones are kept (nothing else mixpanel sends: no URL, referrer or campaign), each string cut to
 * 255 characters; a route keeps its path only, and an email-shaped common value (such as
 * $user_id) is left out.
 */
export function toStoredEvent(raw: unknown, receivedAt: string): EventVerdict {
  if (!isRecord(raw)) return { dropped: 'not an object' };
  const name = raw.event;
  if (typeof name !== 'string' || !isAnalyticsEventName(name)) return { dropped: 'unknown event' };
  const properties = isRecord(raw.properties) ? raw.properties : {};
  const distinctId = requiredId(properties, 'distinct_id');
  const insertId = requiredId(properties, '$insert_id');
  if (!distinctId) return { dropped: 'no distinct_id' };
  if (isEmailShaped(distinctId)) return { dropped: 'email-shaped distinct_id' };
  if (!insertId) return { dropped: 'no $insert_id' };
  // mixpanel sends seconds with a fraction; a client sending milliseconds is read as such.
  const time = properties.time;
  if (typeof time !== 'number' || !Number.isFinite(time) || time <= 0) return { dropped: 'no time' };
  const timeMs = Math.round(time < 1e11 ? time * 1000 : time);
  const arrivedMs = Date.parse(receivedAt);
  if (timeMs > arrivedMs + MAX_FUTURE_MS) return { dropped: 'time in the future' };
  if (timeMs < arrivedMs - MAX_PAST_MS) return { dropped: 'time too old' };

  const schema = ANALYTICS_EVENTS[name];
  const own: Record<string, unknown> = {};
  // Cut before the check, as mixpanel-browser does before sending: a long value is kept, shortened.
  for (const key of Object.keys(schema.shape)) {
    const value = properties[key];
    if (value !== undefined) own[key] = typeof value === 'string' ? truncate(value) : value;
  }
  if (typeof own.route === 'string') own.route = pathOf(own.route);
  const parsed = schema.safeParse(own);
  if (!parsed.success) return { dropped: `bad properties of ${name}` };
  const props = parsed.data as Record<string, string | number | boolean>;

  const stored: StoredAnalyticsEvent = {
    event: name,
    time: timeMs,
    distinct_id: distinctId,
    insert_id: insertId,
    props,
    received_at: receivedAt,
  };
  const columns = stored as unknown as Record<string, unknown>;
  for (const key of KEPT_NAMES) {
    if (key === 'distinct_id' || key === 'time' || key === '$insert_id') continue;
    const value = properties[key];
    if (NUMERIC_COLUMNS.has(key)) {
      if (typeof value === 'number' && Number.isFinite(value)) columns[ANALYTICS_KEPT_PROPERTIES[key]] = value;
    } else if (typeof value === 'string' && value !== '' && !isEmailShaped(value)) {
      columns[ANALYTICS_KEPT_PROPERTIES[key]] = truncate(value);
    }
  }
  return { kept: stored };
}
