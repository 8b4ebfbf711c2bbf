import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { PrefetchLink as Link } from '../../components/prefetch-link';
import { ChevronDownIcon } from '../../components/icons';
import { menuNetworkProducts } from '../../lib/network-products';
import { MAIN_LINKS } from './main-links';
import menu from './menu.module.css';
import { ProductLink } from './product-link';
import styles from './top-bar.module.css';

/**
 * The main links as a 'Menu' dropdown, for screens below 768 px, followed by the family's apps
 * (as in the products menu, without the descriptions) so a phone reaches them from here too.
 */
export function NavMenu({ signedIn, defaultOpen = false }: { signedIn: boolean; defaultOpen?: boolean }) {
  // The apps' pages the main links do not already reach (Stories is one of them).
  const appPages = menuNetworkProducts({ signedIn }).filter((product) => !MAIN_LINKS.some((link) => link.to === product.path));
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={styles.menuButton}>
        Menu
        <ChevronDownIcon size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="start" sideOffset={8} aria-label="Menu">
          {MAIN_LINKS.map((link) => (
            <DropdownMenu.Item key={link.to} asChild className={menu.item}>
              <Link to={link.to}>{link.label}</Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className={menu.separator} />
          <DropdownMenu.Group aria-label="Our products">
            <DropdownMenu.Label className={menu.label}>Our products</DropdownMenu.Label>
            {appPages.map((product) => (
              <DropdownMenu.Item key={product.path} asChild className={menu.item}>
                <ProductLink app={product.app} path={product.path}>
                  {product.title}
                </ProductLink>
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Group>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
