import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { addCartItemBodySchema, MAX_QUANTITY } from '@shared/schemas/store';
import { Button } from '../../../components/button';
import { useCurrentUser } from '../../../lib/current-user';
import { useRequireLogin } from '../../../lib/require-login';
import { useAddCartItem } from '../api/add-cart-item';
import { useReplaceCartWithItem } from '../api/replace-cart-with-item';
import type { CartItemView, GradeView, ShopView } from '../api/store-keys';
import { cartPath } from '../lib/paths';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

const quantitySchema = addCartItemBodySchema.shape.quantity;

/** The quantity typed, checked as the API checks it: a whole number from 1 to 99. */
function readQuantity(value: string): { quantity: number } | { error: string } {
  const parsed = quantitySchema.safeParse(value.trim() === '' ? Number.NaN : Number(value));
  if (parsed.success) return { quantity: parsed.data };
  return { error: parsed.error.issues[0]?.message ?? `Choose a quantity from 1 to ${MAX_QUANTITY}` };
}

/**
 * How a grade is bought: "Add to cart" (with a quantity for a one-time grade; a subscription is
 * one per cart) and "Buy now", which makes it the cart's only item and opens the cart. A visitor
 * is asked to log in first. A grade that cannot be bought says why instead.
 */
export function PurchaseControls({ grade, shop, describedBy }: { grade: GradeView; shop: ShopView; describedBy: string }) {
  const quantityId = useId();
  const errorId = useId();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const requireLogin = useRequireLogin();
  const add = useAddCartItem(user?.userId ?? '');
  const buyNow = useReplaceCartWithItem(user?.userId ?? '');
  const [quantityText, setQuantityText] = useState('1');
  const [quantityError, setQuantityError] = useState<string | null>(null);
  const [added, setAdded] = useState<CartItemView | null>(null);

  if (!shop.acceptsPayments) return <p className={pageStyles.muted}>Not on sale yet</p>;
  if (!grade.purchasable) {
    return (
      <p className={styles.badge} data-tone="warning">
        No longer sold
      </p>
    );
  }

  const once = grade.billing.kind === 'once';
  const busy = add.isPending || buyNow.isPending;
  const failure = add.error ?? buyNow.error;

  const chosenQuantity = (): number | null => {
    if (!once) return 1;
    const read = readQuantity(quantityText);
    if ('error' in read) {
      setQuantityError(read.error);
      return null;
    }
    setQuantityError(null);
    return read.quantity;
  };

  const addToCart = (event: FormEvent) => {
    event.preventDefault();
    requireLogin(() => {
      const quantity = chosenQuantity();
      if (quantity === null || busy) return;
      setAdded(null);
      buyNow.reset();
      add.mutate({ productStockGradeId: grade.id, quantity }, { onSuccess: setAdded });
    });
  };

  const buy = () => {
    requireLogin(() => {
      const quantity = chosenQuantity();
      if (quantity === null || busy) return;
      setAdded(null);
      add.reset();
      buyNow.mutate(
        { productStockGradeId: grade.id, quantity },
        { onSuccess: (item) => void navigate(cartPath(item.merchantAccountId)) },
      );
    });
  };

  return (
    <form className={styles.purchase} onSubmit={addToCart} noValidate>
      {once ? (
        <div className={styles.quantity}>
          <label className={fieldStyles.label} htmlFor={quantityId}>
            Quantity
          </label>
          <input
            id={quantityId}
            className={fieldStyles.control}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_QUANTITY}
            step={1}
            value={quantityText}
            onChange={(event) => setQuantityText(event.target.value)}
            aria-invalid={quantityError ? true : undefined}
            aria-describedby={quantityError ? errorId : undefined}
          />
          {quantityError ? (
            <p id={errorId} className={fieldStyles.error} role="alert">
              {quantityError}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={busy} aria-busy={add.isPending || undefined} aria-describedby={describedBy}>
          {add.isPending ? 'Adding…' : 'Add to cart'}
        </Button>
        <Button
          variant="secondary"
          onClick={buy}
          disabled={busy}
          aria-busy={buyNow.isPending || undefined}
          aria-describedby={describedBy}
        >
          {buyNow.isPending ? 'Opening the cart…' : 'Buy now'}
        </Button>
      </div>
      <div role="status" className={styles.added}>
        {added ? (
          <>
            {added.billing === 'once' ? `In your cart: ${added.quantity}.` : 'In your cart.'}{' '}
            <Link to={cartPath(added.merchantAccountId)}>View cart</Link>
          </>
        ) : null}
      </div>
      {failure ? (
        <div className={pageStyles.alert} role="alert">
          {failure.message || 'This could not be added to your cart. Try again.'}
        </div>
      ) : null}
    </form>
  );
}
