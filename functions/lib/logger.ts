import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** One logger and one metrics sink per Lambda instance (module scope, reused across calls). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'toppubs' });

export const metrics = new Metrics({
  namespace: 'TopPubs',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'toppubs',
});
