/** Product analytics for every feature: `track(name, properties)` from the event catalogue. */
export { ANALYTICS_EVENT_TYPE, identify, resetAnalytics, startAnalytics, track, type TrackedEvent } from './track';
export { trackPageViews } from './page-views';
export { useAnalyticsIdentity } from './use-analytics-identity';
