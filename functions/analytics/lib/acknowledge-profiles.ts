import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnalyticsIngestAnswer } from '../../../shared/schemas/analytics';
import { decodeEvents } from './decode-events';
import { checkBodySize, limitIngestRate } from './ingest-guards';

/**
 * mixpanel-browser's profile updates (people, groups): checked like events (size, rate, a
 * readable body) and acknowledged, but not stored: a profile is personal data the figures do
 * not need. Answering 200 makes mixpanel forget them instead of retrying forever.
 */
export async function acknowledgeProfiles(event: APIGatewayProxyEventV2, data: string): Promise<AnalyticsIngestAnswer> {
  checkBodySize(event);
  await limitIngestRate(event);
  const updates = decodeEvents(data);
  return { status: 1, error: null, accepted: 0, dropped: updates.length };
}
