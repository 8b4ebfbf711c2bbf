import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const unlockEndpoint = endpoint<typeof routes.unlockTransferPackage>('POST', '/api/i/transfer/transfer/{id}/v/package/unlock');

/**
 * Enters a protected package's password: the right one sets an HttpOnly cookie that opens the
 * package in this browser for 12 hours. 403 (WRONG_PASSWORD) for a wrong one; 429 with the wait
 * after too many.
 */
export function unlockTransferPackage(id: string, password: string) {
  return unlockEndpoint({ params: { id }, body: { password } });
}

/** Unlocks from the package page, which then loads the package again. */
export function useUnlockTransferPackage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => unlockTransferPackage(id, password),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transferKeys.package(id) }),
  });
}
