import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useId } from 'react';
import { GridIcon } from '../../components/icons';
import { menuNetworkProducts, NETWORK_PRODUCTS, type NetworkProduct } from '../../lib/network-products';
import menu from './menu.module.css';
import { ProductLink } from './product-link';
import styles from './top-bar.module.css';

/**
 * The family's apps, in the top bar's products menu (an app launcher): each with a one-line
 * description, linking to its page on this host, or on its sibling host when the build sets one.
 * Browser extensions are skipped, and so are a visitor's pages of one's own things.
 */
export function ProductsMenu({
  signedIn,
  products = NETWORK_PRODUCTS,
  defaultOpen = false,
}: {
  /** A visitor's menu leaves out the pages of one's own things. */
  signedIn: boolean;
  products?: readonly NetworkProduct[];
  defaultOpen?: boolean;
}) {
  const items = menuNetworkProducts({ signedIn, products });
  const id = useId();
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={styles.iconButton} aria-label="Our products">
        <GridIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="end" sideOffset={8} aria-label="Our products">
          <DropdownMenu.Label className={menu.label}>Our products</DropdownMenu.Label>
          {/*
            Each item is named by its title alone and described by the line under it: the line is
            hidden from the name (an aria-label would make the name differ from the visible text).
          */}
          {items.map((product, index) => (
            <DropdownMenu.Item key={product.title} asChild className={`${menu.item} ${menu.product}`}>
              <ProductLink app={product.app} path={product.path} aria-describedby={`${id}-${index}`}>
                <img src={product.logoIconUrl} alt="" width={32} height={32} />
                <span className={menu.productText}>
                  <span>{product.title}</span>
                  <small id={`${id}-${index}`} aria-hidden="true">
                    {product.description}
                  </small>
                </span>
              </ProductLink>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
