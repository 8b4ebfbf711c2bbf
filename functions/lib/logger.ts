import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** One logger and one metrics sink per Lambda instance (module scope, reused across calls). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'toppubs' });

export const metrics = new Metrics({
  namespace: 'TopPubs',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'toppubs',
});

/**
 * Publishes what the call stored, and nothing when it stored none: Powertools prints a "No
 * application metrics to publish" warning for an empty publish, whether metrics are enabled or
 * not (a job that failed before counting anything, or, in the local runtime where every
 * function shares this instance, a store another function's publish has just emptied).
 */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
