import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const acceptInviteEndpoint = endpoint<typeof routes.acceptTransferInvite>('POST', '/api/i/transfer/transfer/{id}/invite/accept');

/**
 * Spends the link a recipient was emailed (once): the server answers the package and a grant
 * for it alone (an HttpOnly cookie; nobody is signed in), saying whether it made an account for
 * the address (`grant.accountCreated`). 400 with the reason for a link that is unknown, used or
 * not for this transfer.
 */
export function acceptTransferInvite(id: string, token: string) {
  return acceptInviteEndpoint({ params: { id }, body: { token } });
}
