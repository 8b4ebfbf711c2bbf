import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const getSenderProfileEndpoint = endpoint<typeof routes.showSenderProfile>('GET', '/api/i/ourTransfers/show/profile/{userId}/v');

/** A sender's public card in the transfer app, with its page metadata (404 for an unknown user). */
export function getSenderProfile(userId: string, signal?: AbortSignal) {
  return getSenderProfileEndpoint({ params: { userId }, ...(signal ? { signal } : {}) });
}

export function senderProfileQueryOptions(userId: string) {
  return queryOptions({ queryKey: transferKeys.sender(userId), queryFn: ({ signal }) => getSenderProfile(userId, signal) });
}

export function useSenderProfile(userId: string, enabled = true) {
  return useQuery({ ...senderProfileQueryOptions(userId), enabled });
}
