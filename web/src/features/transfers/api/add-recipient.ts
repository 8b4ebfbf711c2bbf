import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const addRecipientEndpoint = endpoint<typeof routes.addRecipient>('POST', '/api/i/transfer/transfer/{id}/addRecipient');

/** Adds a recipient by email (adding one twice answers the same one); a sent transfer emails them at once. */
export function addRecipient(id: string, email: string, signal?: AbortSignal) {
  return addRecipientEndpoint({ params: { id }, body: { email }, ...(signal ? { signal } : {}) });
}

/** Adds a recipient from the sender's view of the transfer, which then shows them. */
export function useAddRecipient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => addRecipient(id, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transferKeys.view(id) }),
  });
}
