import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { CartIcon } from '../../../components/icons';
import { useMyCarts } from '../api/list-my-carts';
import type { OpenCartView } from '../api/store-keys';
import { cartPath } from '../lib/paths';
import styles from './store.module.css';

const items = (count: number) => `${count} ${count === 1 ? 'item' : 'items'}`;

/** What a cart holds, in words: what can be bought, and the lines no longer sold apart. */
function cartContents(cart: OpenCartView): string {
  const unsold = cart.unavailableLineCount > 0 ? `${cart.unavailableLineCount} no longer sold` : null;
  if (cart.itemCount === 0 && unsold) return unsold;
  return unsold ? `${items(cart.itemCount)}, ${unsold}` : items(cart.itemCount);
}

/**
 * The top bar's cart: an icon with the count of what can be bought in the person's carts, shown
 * while there is something to buy in one (a line no longer sold is not counted: the cart's page
 * lists it to be removed). A cart here is one shop's (each is paid at that shop's own payment
 * account), so like the big marketplaces (one cart icon, one count) it leads to the cart with
 * something to buy added to last, and that cart's page lists the others. Nothing for a visitor,
 * and no request either.
 */
export function TopBarCartLink({ userId, className }: { userId: string | null; className?: string }) {
  const { data: carts } = useMyCarts(userId);
  const latest = carts?.find((cart) => cart.itemCount > 0);
  const total = carts?.reduce((sum, cart) => sum + cart.itemCount, 0) ?? 0;
  if (!latest || total === 0) return null;
  return (
    <Link to={cartPath(latest.merchantAccountId)} className={className} aria-label={`Cart, ${items(total)}`}>
      <CartIcon />
      <span className={styles.cartCount} aria-hidden="true">
        {total > 99 ? '99+' : total}
      </span>
    </Link>
  );
}

/** "Your cart (3)" on a shop's page, while the person has something to buy in that shop's cart. */
export function ShopCartLink({ userId, merchantAccountId }: { userId: string | null; merchantAccountId: string }) {
  const { data: carts } = useMyCarts(userId);
  const cart = carts?.find((candidate) => candidate.merchantAccountId === merchantAccountId);
  if (!cart || cart.itemCount === 0) return null;
  return (
    <p className={styles.shopCartLink}>
      <Link to={cartPath(cart.merchantAccountId)}>Your cart ({cart.itemCount})</Link>
    </p>
  );
}

/** On a cart's page: the person's carts at other shops, each paid on its own (one holding only lines no longer sold too, to empty it). */
export function OtherCarts({ userId, merchantAccountId }: { userId: string; merchantAccountId: string }) {
  const { data: carts } = useMyCarts(userId);
  const others = carts?.filter((cart: OpenCartView) => cart.merchantAccountId !== merchantAccountId) ?? [];
  if (others.length === 0) return null;
  return (
    <nav aria-label="Your other carts" className={styles.otherCarts}>
      <p>You also have a cart at:</p>
      <ul>
        {others.map((cart) => (
          <li key={cart.merchantAccountId}>
            <Link to={cartPath(cart.merchantAccountId)}>
              {cart.shop.shopName} ({cartContents(cart)})
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
