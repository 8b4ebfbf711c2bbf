import type { TransferDelivery } from '@shared/schemas/transfers';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const setDeliveryEndpoint = endpoint<typeof routes.setTransferDelivery>('PUT', '/api/i/transfer/transfer/{id}/delivery');

/** Chooses a draft's delivery and download limit (null: none) again; 409 once sent. */
export function setTransferDelivery(id: string, delivery: TransferDelivery, downloadLimit: number | null) {
  return setDeliveryEndpoint({ params: { id }, body: { delivery, downloadLimit } });
}
