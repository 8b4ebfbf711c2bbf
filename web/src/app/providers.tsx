import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { DrawerProvider } from '../lib/drawer';
import { LoginModalProvider } from '../lib/login-modal';
import { createQueryClient, installFocusThrottle } from '../lib/query-client';
import { ShareStoryProvider } from '../lib/share-story';

installFocusThrottle();

/**
 * Everything a page may rely on: the data cache, and the shell's login modal, share-story modal
 * and drawer state (`useLoginModal`, `useShareStory`, `useDrawer` from web/src/lib). Toasts need
 * no provider: `toast` from web/src/lib/toast.ts. Tests may pass their own `queryClient`.
 */
export function AppProviders({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [created] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={given ?? created}>
      <LoginModalProvider>
        <ShareStoryProvider>
          <DrawerProvider>{children}</DrawerProvider>
        </ShareStoryProvider>
      </LoginModalProvider>
    </QueryClientProvider>
  );
}
