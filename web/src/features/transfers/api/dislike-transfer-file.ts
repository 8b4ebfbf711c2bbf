import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const dislikeEndpoint = endpoint<typeof routes.dislikeTransferFile>(
  'PUT',
  '/api/i/transfer/transfer/{id}/record/{recordId}/v/dislike/{status}',
);

/** Dislikes ('on', replacing a like) or withdraws the dislike ('off') of a file of a package. */
export function dislikeTransferFile(transferId: string, fileId: string, on: boolean) {
  return dislikeEndpoint({ params: { id: transferId, recordId: fileId, status: on ? 'on' : 'off' } });
}
