import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { openTransferLink } from '../api/open-transfer-link';
import { transferKeys } from '../api/transfer-keys';

/** The key of a link transfer's link: `#key=<key>` on the package's address. */
export function linkKeyOf(hash: string): string | null {
  const key = new URLSearchParams(hash.replace(/^#/, '')).get('key');
  return key && key.length <= 200 ? key : null;
}

/**
 * Opens a link transfer from its link's key, once: the answer is the package (put where the page
 * reads it) and a grant cookie that opens it again on a reload. The key then leaves the address,
 * so it is not copied from the address bar or kept in the history by accident; a failed
 * connection leaves it for a retry.
 */
export function useOpenLink(transferId: string) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = linkKeyOf(location.hash);
  const open = useMutation({
    mutationFn: (linkKey: string) => openTransferLink(transferId, linkKey),
    onSuccess: (answer) => {
      // A password-protected package is read again once the grant is set: it answers that it
      // waits for the password, and the page asks for it.
      if ('passwordRequired' in answer) return queryClient.invalidateQueries({ queryKey: transferKeys.package(transferId) });
      const { grant: _grant, ...view } = answer;
      queryClient.setQueryData(transferKeys.package(transferId), view);
      return undefined;
    },
  });
  const tried = useRef<string | null>(null);
  const { mutate } = open;
  useEffect(() => {
    if (!key || tried.current === key) return;
    tried.current = key;
    mutate(key, {
      onSettled: (_view, error) => {
        if (!error || (error instanceof ApiError && error.status < 500)) {
          void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state });
        }
      },
    });
  }, [key, mutate, navigate, location.pathname, location.search, location.state]);
  return {
    /** The key is being tried (or about to be): the package waits for it. */
    opening: (key !== null && !open.isError && !open.isSuccess) || open.isPending,
    opened: open.isSuccess,
    error: open.error,
    retry: () => open.mutate(tried.current ?? ''),
  };
}
