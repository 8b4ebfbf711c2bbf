import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { ChevronDownIcon } from '../../components/icons';
import { MAIN_LINKS } from './main-links';
import menu from './menu.module.css';
import styles from './top-bar.module.css';

/** The main links as a 'Menu' dropdown, for screens below 768 px. */
export function NavMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
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
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
