import { PrefetchLink as Link } from '../../../components/prefetch-link';
import type { ShopView } from '../api/store-keys';
import { shopPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/** Said wherever something could be bought: nothing can be until the merchant connects a payment account. */
export function NoPaymentsNotice({ shop }: { shop: ShopView }) {
  if (shop.acceptsPayments) return null;
  return (
    <p className={styles.notice}>
      <strong>{shop.shopName} does not take payments yet.</strong> You can look around; nothing can be bought until it does.
    </p>
  );
}

/** The top of a shop's page: its logo, name and description. */
export function ShopHeader({ shop }: { shop: ShopView }) {
  return (
    <header className={styles.header}>
      <div className={styles.shopHeader}>
        {/* The name beside it says whose logo it is. */}
        {shop.logo ? <img className={styles.logo} src={shop.logo.url} alt="" width={72} height={72} /> : null}
        <div className={styles.header}>
          <h1 className={pageStyles.title}>{shop.shopName}</h1>
          {shop.description ? <p className={styles.lede}>{shop.description}</p> : null}
        </div>
      </div>
      <NoPaymentsNotice shop={shop} />
    </header>
  );
}

/** "Sold by The Pen Shop", above a product or a grade. */
export function ShopLine({ shop }: { shop: Pick<ShopView, 'handle' | 'shopName' | 'logo'> }) {
  return (
    <p className={styles.shopLine}>
      {shop.logo ? <img src={shop.logo.url} alt="" width={24} height={24} /> : null}
      <span>
        Sold by <Link to={shopPath(shop.handle)}>{shop.shopName}</Link>
      </span>
    </p>
  );
}
