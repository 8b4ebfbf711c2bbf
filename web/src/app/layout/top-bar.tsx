import { lazy } from 'react';
import { NavLink, useLocation } from 'react-router';
import { PrefetchLink as Link } from '../../components/prefetch-link';
import { BrandMark } from '../../components/brand-mark';
import { Button } from '../../components/button';
import { BellIcon, ChevronDownIcon, GridIcon, SearchIcon } from '../../components/icons';
import { unseenNotificationCount, useCurrentUser, useResetUnseenNotifications } from '../../lib/current-user';
import { useHideOnScroll } from '../../lib/use-hide-on-scroll';
import { useLoginModal } from '../../lib/login-modal';
import { NOTIFICATIONS_PATH } from '../../lib/site-links';
import { BELOW_MAX_WIDTH_QUERY } from '../../lib/breakpoints';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { APP_NAME } from '@shared/constants';
import { TopBarCartLink } from '../../features/store/components/cart-links';
import { Avatar } from './avatar';
import { DeferredMenu } from './deferred-menu';
import { preloadLoginModal } from './lazy-overlays';
import { MAIN_LINKS } from './main-links';
import { TopBarSearch } from './top-bar-search';
import styles from './top-bar.module.css';

// The menus' code (Radix, floating-ui) arrives on first use, keeping it out of the first load.
const loadAvatarMenu = () => import('./avatar-menu');
const loadProductsMenu = () => import('./products-menu');
const loadNavMenu = () => import('./nav-menu');
const AvatarMenu = lazy(() => loadAvatarMenu().then((module) => ({ default: module.AvatarMenu })));
const ProductsMenu = lazy(() => loadProductsMenu().then((module) => ({ default: module.ProductsMenu })));
const NavMenu = lazy(() => loadNavMenu().then((module) => ({ default: module.NavMenu })));

/** Below the page's max width the bar has no room for its search box: a link to /search instead. */
const NO_ROOM_FOR_SEARCH_BOX_QUERY = BELOW_MAX_WIDTH_QUERY;

function navLinkClass({ isActive }: { isActive: boolean }) {
  return isActive ? `${styles.navLink} ${styles.navLinkActive}` : styles.navLink;
}

function NotificationsLink({ unseen }: { unseen: number }) {
  const reset = useResetUnseenNotifications();
  return (
    <Link to={NOTIFICATIONS_PATH} className={styles.iconButton} onClick={reset}>
      <BellIcon />
      {/* The name comes from hidden text, not aria-label: a label that does not contain the visible
          count ("9+") breaks WCAG 2.5.3 (label in name), and axe refuses it. The badge shows the
          count (test id kept from the dot it replaced); the hidden text says it exactly. */}
      <span className="visually-hidden">{unseen > 0 ? `Notifications (${unseen} unseen)` : 'Notifications'}</span>
      {unseen > 0 ? (
        <span className={styles.count} data-testid="unseen-dot" aria-hidden="true">
          {unseen > 9 ? '9+' : unseen}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * The top bar: logo, main links (a Menu dropdown below 768 px), search (a box that suggests
 * publications as you type on wide screens, a link to the search page on narrow ones),
 * network products, then Login or (signed in) the cart while something is in one, the bell and
 * the avatar menu. Slides away when scrolling
 * down, comes back when scrolling up, gains a border once the page scrolled past it.
 * `compact` forces the small-screen variant (otherwise decided by a media query).
 */
export function TopBar({ compact }: { compact?: boolean }) {
  const isSmallScreen = useMediaQuery(SMALL_SCREEN_QUERY);
  const collapsed = compact ?? isSmallScreen;
  const { hidden, scrolled } = useHideOnScroll();
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();
  // The search page has its own box; a second one above it would only compete with it.
  const onSearchPage = useLocation().pathname === '/search';
  // Between the phone layout and a wide screen the main links need the room: search is an icon.
  const noRoomForSearchBox = useMediaQuery(NO_ROOM_FOR_SEARCH_BOX_QUERY);

  return (
    <header className={styles.bar} data-hidden={hidden} data-scrolled={scrolled}>
      <div className={styles.inner}>
        <Link to="/" className={styles.logo} aria-label={`${APP_NAME} home`}>
          <BrandMark />
          <span className={styles.logoText}>{APP_NAME}</span>
        </Link>
        <nav aria-label="Main" className={styles.nav}>
          {collapsed ? (
            <DeferredMenu
              trigger={{ className: styles.menuButton, children: ['Menu', <ChevronDownIcon key="icon" size={16} />] }}
              preload={loadNavMenu}
            >
              {(openNow) => <NavMenu signedIn={Boolean(user)} defaultOpen={openNow} />}
            </DeferredMenu>
          ) : (
            <ul className={styles.navList}>
              {MAIN_LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} className={navLinkClass}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <div className={styles.actions}>
          {onSearchPage ? null : collapsed || noRoomForSearchBox ? (
            <Link to="/search" className={styles.iconButton} aria-label="Search publications">
              <SearchIcon size={18} />
            </Link>
          ) : (
            <TopBarSearch />
          )}
          <DeferredMenu
            trigger={{ className: styles.iconButton, 'aria-label': 'Our products', children: <GridIcon /> }}
            preload={loadProductsMenu}
          >
            {(openNow) => <ProductsMenu signedIn={Boolean(user)} defaultOpen={openNow} />}
          </DeferredMenu>
          {isPending ? (
            <span className={styles.authPlaceholder} aria-hidden="true" />
          ) : user ? (
            <>
              <TopBarCartLink userId={user.userId} className={styles.iconButton} />
              <NotificationsLink unseen={unseenNotificationCount(user)} />
              <DeferredMenu
                trigger={{
                  className: styles.avatarButton,
                  'aria-label': `Account menu for ${user.username}`,
                  children: <Avatar user={user} />,
                }}
                preload={loadAvatarMenu}
              >
                {(openNow) => <AvatarMenu user={user} defaultOpen={openNow} />}
              </DeferredMenu>
            </>
          ) : (
            <Button size="small" onClick={loginModal.open} onPointerEnter={preloadLoginModal} onFocus={preloadLoginModal}>
              Login
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
