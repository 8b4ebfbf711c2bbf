import * as analyticsRoutes from '../../shared/routes/analytics';
import { createHandler } from '../lib/http/create-handler';
import { acknowledgeProfiles } from './lib/acknowledge-profiles';

/** mixpanel-browser's people requests: acknowledged, never stored (profiles are personal data). */
export const handler = createHandler(analyticsRoutes.engageAnalyticsProfiles, async ({ body, event }) =>
  acknowledgeProfiles(event, body.data),
);
