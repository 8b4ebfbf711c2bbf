import { lazy, Suspense } from 'react';
import { ChunkBoundary } from '../../components/chunk-boundary';
import { useDrawer } from '../../lib/drawer';
import { useLoginModal } from '../../lib/login-modal';
import { useShareStory } from '../../lib/share-story';

// Dialog code (Radix Dialog, focus trap, scroll lock) is downloaded when a dialog first opens.
const loadLoginModal = () => import('./login-modal');
export const preloadLoginModal = () => void loadLoginModal();

const LoginModal = lazy(() => loadLoginModal().then((module) => ({ default: module.LoginModal })));
const ShareStoryModal = lazy(() => import('./share-story-modal').then((module) => ({ default: module.ShareStoryModal })));
const GlobalDrawer = lazy(() => import('./global-drawer').then((module) => ({ default: module.GlobalDrawer })));

/** The shell's login modal, share-story modal and drawer, each mounted while it is open. */
export function ShellOverlays() {
  const loginModal = useLoginModal();
  const shareStory = useShareStory();
  const drawer = useDrawer();
  return (
    <ChunkBoundary fallback={null}>
      <Suspense fallback={null}>
        {loginModal.isOpen ? <LoginModal /> : null}
        {shareStory.story ? <ShareStoryModal /> : null}
        {drawer.config ? <GlobalDrawer /> : null}
      </Suspense>
    </ChunkBoundary>
  );
}
