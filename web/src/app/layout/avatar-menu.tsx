import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { PrefetchLink as Link } from '../../components/prefetch-link';
import { ExternalIcon } from '../../components/icons';
import type { CurrentUser } from '../../lib/current-user';
import { PERSONAL_PLACES } from '../../lib/network-products';
import { BLOG_URL, HELP_URL, LOGOUT_PATH } from '../../lib/site-links';
import { Avatar } from './avatar';
import menu from './menu.module.css';
import { ProductLink } from './product-link';
import styles from './top-bar.module.css';

const RANKING_LINKS = [
  { to: '/active', label: 'Active Publications' },
  { to: '/growing', label: 'Fastest Growing Publications' },
  { to: '/growing/active', label: 'Fastest Growing Active Publications' },
  { to: '/recent', label: 'Recently Active Publications' },
  { to: '/topics', label: 'Topics' },
  { to: '/suggest', label: 'Suggest a Publication' },
  { to: '/about', label: 'About' },
] as const;

/** The editors', moderators' and owner's pages, in the menu of superusers only. */
const SUPERUSER_LINKS = [
  { to: '/stories/review', label: 'Review queue' },
  { to: '/suggestions/review', label: 'Suggestions to review' },
  { to: '/moderation', label: 'Moderation' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/pro-codes', label: 'Pro discount codes' },
  { to: '/pro-refunds', label: 'Pro refunds' },
] as const;

/**
 * The signed-in user's menu: who is signed in, Account (and a superuser's queues), the person's
 * own places in the apps (transfers, subscription, orders, shop), the ranking pages, Blog and
 * Help, then Logout.
 */
export function AvatarMenu({ user, defaultOpen = false }: { user: CurrentUser; defaultOpen?: boolean }) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={styles.avatarButton} aria-label={`Account menu for ${user.username}`}>
        <Avatar user={user} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className={menu.content}
          align="end"
          sideOffset={8}
          aria-label={`Account menu for ${user.username}`}
        >
          <DropdownMenu.Label className={menu.label}>
            Signed in as <strong>@{user.username}</strong>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className={menu.separator} />
          <DropdownMenu.Item asChild className={menu.item}>
            <a href={user.pennameAccountUrl}>Account</a>
          </DropdownMenu.Item>
          {user.isSuperUser
            ? SUPERUSER_LINKS.map((link) => (
                <DropdownMenu.Item key={link.to} asChild className={menu.item}>
                  <Link to={link.to}>{link.label}</Link>
                </DropdownMenu.Item>
              ))
            : null}
          <DropdownMenu.Separator className={menu.separator} />
          {PERSONAL_PLACES.map((place) => (
            <DropdownMenu.Item key={place.path} asChild className={menu.item}>
              <ProductLink app={place.app} path={place.path}>
                {place.label}
              </ProductLink>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className={menu.separator} />
          {RANKING_LINKS.map((link) => (
            <DropdownMenu.Item key={link.to} asChild className={menu.item}>
              <Link to={link.to}>{link.label}</Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className={menu.separator} />
          <DropdownMenu.Item asChild className={menu.item}>
            <a href={BLOG_URL} target="_blank" rel="noopener noreferrer">
              Blog
              <ExternalIcon size={14} className={menu.trailing} />
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={menu.item}>
            <a href={HELP_URL}>Help</a>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className={menu.separator} />
          <DropdownMenu.Item asChild className={menu.item}>
            <a href={LOGOUT_PATH}>Logout</a>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
