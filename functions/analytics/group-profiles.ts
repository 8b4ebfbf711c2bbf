import * as analyticsRoutes from '../../shared/routes/analytics';
import { createHandler } from '../lib/http/create-handler';
import { acknowledgeProfiles } from './lib/acknowledge-profiles';

/** mixpanel-browser's group requests: acknowledged, never stored (the product tracks no groups). */
export const handler = createHandler(analyticsRoutes.groupAnalyticsProfiles, async ({ body, event }) =>
  acknowledgeProfiles(event, body.data),
);
