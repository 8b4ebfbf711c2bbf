import { useEffect, useId, useRef } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { buttonClassName } from '../../../components/button';
import type { ShopView, StoreInvoiceView } from '../api/store-keys';
import { formatMoney, times } from '../lib/format';
import { ORDERS_PATH, shopPath } from '../lib/paths';
import factsStyles from '../../../components/facts.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/**
 * What the cart page becomes once paid: what was bought, for how much, and where the orders and
 * subscriptions are. Its heading takes focus, so a screen reader hears that it went through.
 */
export function OrderConfirmation({ shop, invoice }: { shop: ShopView; invoice: StoreInvoiceView }) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const subscribed = invoice.lines.some((line) => line.billing === 'subscription');
  return (
    <section className={styles.confirmation} aria-labelledby={titleId}>
      <h1 id={titleId} ref={heading} tabIndex={-1} className={pageStyles.title}>
        Thank you: your order is paid
      </h1>
      <p>
        You paid {formatMoney(invoice.total)} to {shop.shopName}.
      </p>
      <ul className={factsStyles.summaryLines} aria-label="What you bought">
        {invoice.lines.map((line) => (
          <li key={line.productStockGradeId} className={styles.summaryLine}>
            <span>
              {line.description}
              {line.quantity > 1 ? ` × ${line.quantity}` : null}
            </span>
            <span>{formatMoney(times(line.unitPrice, line.quantity))}</span>
          </li>
        ))}
      </ul>
      {subscribed ? (
        <p className={pageStyles.muted}>
          Your subscription has started. Its card, add-ons and cancellation are on your orders page.
        </p>
      ) : null}
      <div className={pageStyles.actions}>
        <Link to={ORDERS_PATH} className={buttonClassName()}>
          See your orders
        </Link>
        <Link to={shopPath(shop.handle)}>Back to {shop.shopName}</Link>
      </div>
    </section>
  );
}
