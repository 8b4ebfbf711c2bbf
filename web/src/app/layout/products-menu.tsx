import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { GridIcon } from '../../components/icons';
import { menuNetworkProducts, NETWORK_PRODUCTS, type NetworkProduct } from '../../lib/network-products';
import menu from './menu.module.css';
import styles from './top-bar.module.css';

/** The provider's other products, in the top bar's products menu; browser extensions skipped. */
export function ProductsMenu({
  products = NETWORK_PRODUCTS,
  defaultOpen = false,
}: {
  products?: readonly NetworkProduct[];
  defaultOpen?: boolean;
}) {
  const items = menuNetworkProducts(products);
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={styles.iconButton} aria-label="Our products">
        <GridIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="end" sideOffset={8} aria-label="Our products">
          <DropdownMenu.Label className={menu.label}>Our products</DropdownMenu.Label>
          {items.map((product) => (
            <DropdownMenu.Item key={product.title} asChild className={`${menu.item} ${menu.product}`}>
              <a href={product.platformNavUrl}>
                <img src={product.logoIconUrl} alt="" width={32} height={32} />
                <span className={menu.productText}>
                  <span>{product.title}</span>
                  {product.description ? <small>{product.description}</small> : null}
                </span>
              </a>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
