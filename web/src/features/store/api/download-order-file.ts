import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const downloadOrderFileEndpoint = endpoint<typeof routes.downloadOrderFile>(
  'POST',
  '/api/i/penpay/customer/me/mod/order/{invoiceId}/file/{fileId}/download',
);

/** A five-minute link to a file the caller's order delivers; takes one of the purchase's downloads of it. */
export function downloadOrderFile(invoiceId: string, fileId: string) {
  return downloadOrderFileEndpoint({ params: { invoiceId, fileId } });
}

/**
 * Downloads by navigating to the link (it saves the file, the page stays), then refetches the
 * orders so the downloads left show. `open` is the navigation: tests give a stand-in.
 */
export function useDownloadOrderFile(userId: string, open: (url: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ invoiceId, fileId }: { invoiceId: string; fileId: string }) => downloadOrderFile(invoiceId, fileId),
    onSuccess: (link) => {
      open(link.url);
      return queryClient.invalidateQueries({ queryKey: storeKeys.orders(userId) });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: storeKeys.orders(userId) }),
  });
}
