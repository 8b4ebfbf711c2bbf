import {
  analyticsFiguresQuerySchema,
  analyticsFiguresSchema,
  analyticsIngestAnswerSchema,
  analyticsIngestBodySchema,
  analyticsIngestQuerySchema,
} from '../schemas/analytics';
import { defineRoute } from './define-route';

/**
 * mixpanel-browser posts its batches here (its `api_host` is `<origin>/api/e/analytics`): a form
 * body without our application-id header or credentials of its own, like any beacon. Not
 * state-changing in the pipeline's sense: nothing of anyone's is changed, and the worst another
 * site can do is add events, which the rate limit bounds.
 */
export const trackAnalyticsEvents = defineRoute({
  method: 'POST',
  path: '/api/e/analytics/track',
  access: 'public',
  handler: 'analytics/track-events',
  summary:
    "mixpanel-browser's track requests (form field `data`: a JSON event or array of events, base64 or plain). Each event is checked on its own against the event catalogue: the good ones are stored (only the listed properties), the bad ones dropped and counted, and the answer is 200 either way. 413 over 256 KB (mixpanel then halves its batch); 429 with Retry-After over 240 requests a minute from one address; 400 when `data` cannot be read at all.",
  query: analyticsIngestQuerySchema,
  body: analyticsIngestBodySchema,
  response: analyticsIngestAnswerSchema,
  acceptsFormBody: true,
  // mixpanel's last batch, as a page is left, comes by sendBeacon: a text/plain form.
  acceptsBeaconBody: true,
  stateChanging: false,
  capabilities: { analytics: 'put' },
});

export const engageAnalyticsProfiles = defineRoute({
  method: 'POST',
  path: '/api/e/analytics/engage',
  access: 'public',
  handler: 'analytics/engage-profiles',
  summary:
    "mixpanel-browser's people (profile) requests. Acknowledged and not stored: people profiles would hold personal data, and the figures need none. Same size, rate and format rules as track.",
  query: analyticsIngestQuerySchema,
  body: analyticsIngestBodySchema,
  response: analyticsIngestAnswerSchema,
  acceptsFormBody: true,
  // mixpanel's last batch, as a page is left, comes by sendBeacon: a text/plain form.
  acceptsBeaconBody: true,
  stateChanging: false,
});

export const groupAnalyticsProfiles = defineRoute({
  method: 'POST',
  path: '/api/e/analytics/groups',
  access: 'public',
  handler: 'analytics/group-profiles',
  summary: "mixpanel-browser's group profile requests. Acknowledged and not stored, like engage: the product tracks no groups.",
  query: analyticsIngestQuerySchema,
  body: analyticsIngestBodySchema,
  response: analyticsIngestAnswerSchema,
  acceptsFormBody: true,
  // mixpanel's last batch, as a page is left, comes by sendBeacon: a text/plain form.
  acceptsBeaconBody: true,
  stateChanging: false,
});

export const getAnalyticsFigures = defineRoute({
  method: 'GET',
  path: '/api/i/analytics/superuser/v/figures',
  access: 'superuser',
  handler: 'analytics/get-figures',
  summary:
    'Superusers: the product figures of the last `days` days (7 to 90, 30 by default) from the daily aggregates the analytics job writes: active users and events per day, the transfer funnel with its conversion, finalize timing p50/p90, upgrades and storefront sales per day.',
  query: analyticsFiguresQuerySchema,
  response: analyticsFiguresSchema,
  capabilities: { analytics: 'read' },
});

/** The group in listing order: a new route goes at the end. */
export const allAnalyticsRoutes = { trackAnalyticsEvents, engageAnalyticsProfiles, groupAnalyticsProfiles, getAnalyticsFigures };
