import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const likeEndpoint = endpoint<typeof routes.likeTransferFile>(
  'PUT',
  '/api/i/transfer/transfer/{id}/relationId/{relationId}/v/like/{status}',
);

/** Likes ('on', replacing a dislike) or stops liking ('off') a file of a package; answers the file with its counts. */
export function likeTransferFile(transferId: string, fileId: string, on: boolean) {
  return likeEndpoint({ params: { id: transferId, relationId: fileId, status: on ? 'on' : 'off' } });
}
