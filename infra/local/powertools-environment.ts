/**
 * Powertools settings of the local runtime, set when this module is evaluated: runtime.ts
 * imports it first, so they are in place before any function module makes its module-scope
 * Logger and Metrics (which read them once, at construction). Locally there is no CloudWatch to
 * read metrics from, and every job would print its EMF document, a line of raw JSON, to the
 * terminal. In AWS nothing sets POWERTOOLS_METRICS_DISABLED, and metrics are published.
 */
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

export {};
