import { useId, useRef, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { MAX_QUANTITY } from '@shared/schemas/store';
import { Button } from '../../../components/button';
import { ApiError } from '../../../lib/api-client';
import { useRemoveCartItem } from '../api/remove-cart-item';
import { useUpdateCartItemQuantity } from '../api/update-cart-item-quantity';
import type { CartInvoice, CartItemView } from '../api/store-keys';
import { formatMoney, times } from '../lib/format';
import { productPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/** Why a line is not what it was when it was added: in words, never by colour alone. */
function ItemFlag({ item }: { item: CartItemView }) {
  if (item.status === 'price-changed') {
    return (
      <p className={styles.flag}>
        <strong>Price changed:</strong> was {formatMoney(item.addedUnitPrice)}, now {formatMoney(item.unitPrice)}.
      </p>
    );
  }
  if (item.status === 'unavailable') {
    return (
      <p className={styles.flag} data-tone="negative">
        <strong>No longer sold:</strong> it will not be charged.
      </p>
    );
  }
  return null;
}

/**
 * A one-time line's quantity: − and + step it, the number can be typed (sent on Enter or on
 * leaving the box). The server checks and prices it; its refusal is shown under the line by the
 * list. Remounted (keyed by the quantity) when the cart comes back with a new one.
 */
function QuantityStepper({
  item,
  name,
  disabled,
  onChange,
}: {
  item: CartItemView;
  name: string;
  disabled: boolean;
  onChange: (quantity: number) => void;
}) {
  const [draft, setDraft] = useState(String(item.quantity));
  const commit = () => {
    const quantity = Number(draft);
    if (draft.trim() === '' || !Number.isFinite(quantity)) setDraft(String(item.quantity));
    else if (quantity !== item.quantity) onChange(quantity);
  };
  return (
    <div className={styles.stepper} role="group" aria-label={`Quantity of ${name}`}>
      <Button
        variant="ghost"
        size="small"
        aria-label={`One fewer ${name}`}
        disabled={disabled || item.quantity <= 1}
        onClick={() => onChange(item.quantity - 1)}
      >
        −
      </Button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_QUANTITY}
        step={1}
        aria-label="Quantity"
        value={draft}
        disabled={disabled}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      <Button
        variant="ghost"
        size="small"
        aria-label={`One more ${name}`}
        disabled={disabled || item.quantity >= MAX_QUANTITY}
        onClick={() => onChange(item.quantity + 1)}
      >
        +
      </Button>
    </div>
  );
}

/**
 * The cart's items with their quantity (a stepper on one-time lines) and price, each with Remove. A line whose price moved
 * since it was added shows both prices; one no longer sold says it is not charged.
 */
export function CartItems({ userId, cart }: { userId: string; cart: CartInvoice }) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const remove = useRemoveCartItem(userId, cart.shop.id);
  const update = useUpdateCartItemQuantity(userId, cart.shop.id);

  const removeItem = (item: CartItemView) => {
    remove.mutate(item.id, {
      // The button pressed is gone with its line: focus goes back to the list's heading.
      onSettled: () => heading.current?.focus(),
    });
  };
  // A 404 means the item was gone already (another tab): the refetched cart shows that.
  const failed = remove.isError && !(remove.error instanceof ApiError && remove.error.status === 404);

  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1} className={pageStyles.sectionTitle}>
        Items
      </h2>
      <ul className={styles.items}>
        {cart.items.map((item) => {
          const name = `${item.productTitle}, ${item.gradeName}`;
          const pending = remove.isPending && remove.variables === item.id;
          const updating = update.isPending && update.variables.cartItemId === item.id;
          const refused = update.isError && update.variables.cartItemId === item.id ? update.error : null;
          const stepper = item.billing === 'once' && item.status !== 'unavailable';
          return (
            <li key={item.id} className={styles.item} data-status={item.status}>
              <p className={styles.itemName}>
                <Link to={productPath(item.productStockId)}>{item.productTitle}</Link>, {item.gradeName}
              </p>
              <p className={styles.itemAmount}>
                {item.status === 'unavailable' ? 'Not charged' : formatMoney(times(item.unitPrice, item.quantity))}
              </p>
              <div className={styles.itemDetails}>
                <span className={pageStyles.muted}>
                  {item.billing === 'subscription'
                    ? `Subscription, ${formatMoney(item.unitPrice)} each billing cycle`
                    : `${item.quantity} × ${formatMoney(item.unitPrice)}`}
                </span>
                {stepper ? (
                  <QuantityStepper
                    key={item.quantity}
                    item={item}
                    name={name}
                    disabled={updating || remove.isPending}
                    onChange={(quantity) => update.mutate({ cartItemId: item.id, quantity })}
                  />
                ) : null}
                <Button variant="ghost" size="small" onClick={() => removeItem(item)} disabled={remove.isPending}>
                  {pending ? 'Removing…' : 'Remove'}
                  <span className="visually-hidden"> {name}</span>
                </Button>
              </div>
              <ItemFlag item={item} />
              {refused ? (
                <p className={styles.flag} data-tone="negative" role="alert">
                  {refused.message || 'The quantity could not be changed. Try again.'}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {failed ? (
        <div className={pageStyles.alert} role="alert">
          {remove.error.message || 'The item could not be removed. Try again.'}
        </div>
      ) : null}
    </section>
  );
}
