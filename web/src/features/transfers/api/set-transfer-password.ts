import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const setPasswordEndpoint = endpoint<typeof routes.setTransferPassword>('PUT', '/api/i/transfer/transfer/{id}/password');

/** Sets (a string) or removes (null) a draft's password; Pro only for setting (403 on Free), 409 once sent. */
export function setTransferPassword(id: string, password: string | null) {
  return setPasswordEndpoint({ params: { id }, body: { password } });
}
