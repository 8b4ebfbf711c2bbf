import * as ssoRoutes from '../../shared/routes/sso';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { actionLinkErrors, isActionType, spendVerifyEmailToken } from './lib/action-tokens';

/**
 * Spends an emailed action token of the named type and performs its action. Login links use a
 * confirm page and a POST so that mail scanners prefetching links cannot burn them; this is a
 * GET because that is the contract the existing clients call, and that is acceptable only for actions that are harmless to
 * repeat: verifying an address twice (or a scanner verifying it first) changes nothing more.
 * Any new action type that is not idempotent must get a confirm step instead.
 */
export const handler = createHandler(ssoRoutes.completeAction, async ({ params }) => {
  const db = getDb();
  if (!isActionType(params.type)) {
    // An unknown type matches no token's purpose; the same answer as a mismatched one.
    throw actionLinkErrors.typeMismatch();
  }
  switch (params.type) {
    case 'verify-email': {
      const { userId } = await spendVerifyEmailToken(db, params.authToken);
      logger.info('Email address verified', { userId });
      return { type: params.type, done: true as const };
    }
  }
});
