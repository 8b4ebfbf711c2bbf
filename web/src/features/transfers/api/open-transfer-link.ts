import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const openLinkEndpoint = endpoint<typeof routes.openTransferLink>('POST', '/api/i/transfer/transfer/{id}/link/open');

/**
 * Opens a link transfer with the key of its link: the server answers the package and a grant for
 * it alone (an HttpOnly cookie; nobody is signed in, no account is made). 404 for a key that does
 * not match, as for a transfer that does not exist; 410 once it has expired.
 */
export function openTransferLink(id: string, key: string) {
  return openLinkEndpoint({ params: { id }, body: { key } });
}
