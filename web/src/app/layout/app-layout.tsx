import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { isFilePath } from '../../lib/file-path';
import { useLiveUnseenCounts } from '../../lib/use-live-unseen-counts';
import { useLoginArrivalToast } from '../../lib/login-arrival';
import { useAccountTheme } from '../../lib/theme';
import { AppToaster } from './app-toaster';
import { FilePathRefusal } from './file-path-refusal';
import { Footer } from './footer';
import styles from './layout.module.css';
import { ShellOverlays } from './lazy-overlays';
import { RouteAnnouncer } from './route-announcer';
import { RouteProgress } from './route-progress';
import { TopBar } from './top-bar';
import { useFrameLinkRetargeting } from './use-frame-link-retargeting';

/**
 * The app shell every page shares: top bar, the page, footer, and the shell's overlays
 * (login modal, share-story modal, drawer, toasts) plus the route progress bar. While someone
 * is signed in, the bell's counts arrive live and the page follows their theme.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  useFrameLinkRetargeting();
  useLiveUnseenCounts();
  useAccountTheme();
  useLoginArrivalToast();
  return (
    <>
      <RouteProgress />
      <div className={styles.shell}>
        <a href="#main" className={styles.skip}>
          Skip to content
        </a>
        <TopBar />
        <main id="main" className={styles.main} tabIndex={-1}>
          {isFilePath(pathname) ? <FilePathRefusal path={pathname} /> : <Outlet />}
        </main>
        <Footer />
      </div>
      <ShellOverlays />
      <AppToaster />
      <RouteAnnouncer />
      <ScrollRestoration />
    </>
  );
}
