import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { ApiError } from '../../../lib/api-client';
import { cartInvoiceQueryOptions, useCartInvoice } from '../api/get-cart-invoice';
import type { CartInvoice, ShopView, StoreInvoiceView } from '../api/store-keys';
import { OtherCarts } from '../components/cart-links';
import { CartItems } from '../components/cart-items';
import { CartPayment } from '../components/cart-payment';
import { CartSummary } from '../components/cart-summary';
import { CartDiscountCodeField } from '../components/discount-code-field';
import { OrderConfirmation } from '../components/order-confirmation';
import { NoPaymentsNotice } from '../components/shop-header';
import { describeCartChanges } from '../lib/cart-changes';
import { shopPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/store.module.css';
import { isMissing } from './shop-page';

const FALLBACK_SEO = { title: `Your cart · ${APP_NAME}` };

/** After a 409: what changed since the invoice the customer tried to pay. Nothing was charged. */
function StaleCartAlert({ changes }: { changes: string[] }) {
  return (
    <div className={pageStyles.alert} role="alert">
      <p>
        <strong>Your cart changed since it was priced, so nothing was charged.</strong>
      </p>
      {changes.length ? (
        <ul>
          {changes.map((change) => (
            <li key={change}>{change}</li>
          ))}
        </ul>
      ) : null}
      <p>Check the new total, then pay again.</p>
    </div>
  );
}

/** A refusal of a discount code by the server (400 or 409 with a DISCOUNT_CODE_ code): its words. */
const codeRefusalOf = (error: unknown): string | null =>
  error instanceof ApiError && error.code?.startsWith('DISCOUNT_CODE') ? error.message : null;

/** The cart's discount code, kept in the address (?code=) so a reload prices the cart the same. */
interface DiscountCode {
  applying: boolean;
  problem: string | null;
  /** Said above the cart: the code was taken off after the page had it (used up, refused at payment). */
  notice: string | null;
  apply: (code: string) => void;
  remove: () => void;
  refused: (message: string) => void;
}

function CodeNotice({ message }: { message: string }) {
  return (
    <div className={pageStyles.alert} role="alert">
      <p>
        <strong>Your discount code was taken off.</strong> {message}
      </p>
    </div>
  );
}

function Cart({
  userId,
  cart,
  refetch,
  onPaid,
  discount,
}: {
  userId: string;
  cart: CartInvoice;
  refetch: () => Promise<CartInvoice | undefined>;
  onPaid: (shop: ShopView, invoice: StoreInvoiceView) => void;
  discount: DiscountCode;
}) {
  const [changes, setChanges] = useState<string[] | null>(null);
  const { shop, items, invoice } = cart;

  const onStale = async (tried: StoreInvoiceView) => {
    const now = await refetch();
    setChanges(now ? describeCartChanges(tried, now) : []);
  };

  return (
    <>
      <PageMeta seo={{ title: `Your cart at ${shop.shopName} · ${APP_NAME}` }} />
      <header className={styles.header}>
        <h1 className={pageStyles.title}>Your cart</h1>
        <p className={pageStyles.muted}>
          At <Link to={shopPath(shop.handle)}>{shop.shopName}</Link>
        </p>
        <OtherCarts userId={userId} merchantAccountId={shop.id} />
      </header>
      {changes ? <StaleCartAlert changes={changes} /> : null}
      {discount.notice ? <CodeNotice message={discount.notice} /> : null}
      {items.length === 0 ? (
        <EmptyState title="Your cart is empty">
          <StateLinks>
            <Link to={shopPath(shop.handle)}>Browse {shop.shopName}</Link>
          </StateLinks>
        </EmptyState>
      ) : (
        <div className={styles.checkout}>
          <div className={pageStyles.section}>
            <CartItems userId={userId} cart={cart} />
            {invoice ? (
              <>
                <CartSummary invoice={invoice} />
                <CartDiscountCodeField
                  invoice={invoice}
                  applying={discount.applying}
                  problem={discount.problem}
                  onApply={discount.apply}
                  onRemove={discount.remove}
                />
              </>
            ) : (
              <p className={styles.notice}>Nothing in your cart can be bought now: there is nothing to pay.</p>
            )}
          </div>
          {invoice ? (
            shop.acceptsPayments ? (
              <CartPayment
                userId={userId}
                shop={shop}
                invoice={invoice}
                onStale={onStale}
                onCodeRefused={discount.refused}
                onAttempt={() => setChanges(null)}
                onPaid={(paid) => onPaid(shop, paid)}
              />
            ) : (
              <NoPaymentsNotice shop={shop} />
            )
          ) : null}
        </div>
      )}
    </>
  );
}

function useDiscountCode(userId: string, merchantAccountId: string) {
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const code = searchParams.get('code') || undefined;
  const [applying, setApplying] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const setCode = useCallback(
    (next: string | undefined) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next) params.set('code', next);
          else params.delete('code');
          return params;
        },
        { replace: true },
      ),
    [setSearchParams],
  );
  const refused = useCallback(
    (message: string) => {
      setNotice(message);
      setCode(undefined);
    },
    [setCode],
  );
  const discount: DiscountCode = {
    applying,
    problem,
    notice,
    apply: (typed) => {
      setApplying(true);
      setProblem(null);
      setNotice(null);
      // Priced by the server first: a refused code stays out of the address and its reason shows by the field.
      queryClient
        .fetchQuery(cartInvoiceQueryOptions(userId, merchantAccountId, typed))
        .then(() => setCode(typed))
        .catch((error: unknown) => setProblem(codeRefusalOf(error) ?? (error instanceof Error ? error.message : String(error))))
        .finally(() => setApplying(false));
    },
    remove: () => {
      setNotice(null);
      setCode(undefined);
    },
    refused,
  };
  return { code, discount };
}

function CartView({ userId, merchantAccountId }: { userId: string; merchantAccountId: string }) {
  const { code, discount } = useDiscountCode(userId, merchantAccountId);
  const query = useCartInvoice(userId, merchantAccountId, code);
  const refusal = code ? codeRefusalOf(query.error) : null;
  // A code in the address that is refused now (used up since, expired): taken off, and said why.
  const { refused } = discount;
  useEffect(() => {
    if (refusal) refused(refusal);
  }, [refusal, refused]);
  // Kept here, not in the cache: the cart is empty once paid, and the confirmation shows what was.
  const [paid, setPaid] = useState<{ shop: ShopView; invoice: StoreInvoiceView } | null>(null);

  if (paid) {
    return (
      <>
        <PageMeta seo={{ title: `Order paid · ${APP_NAME}` }} />
        <OrderConfirmation shop={paid.shop} invoice={paid.invoice} />
      </>
    );
  }
  if (query.data) {
    return (
      <Cart
        userId={userId}
        cart={query.data}
        refetch={async () => (await query.refetch()).data}
        onPaid={(shop, invoice) => setPaid({ shop, invoice })}
        discount={discount}
      />
    );
  }
  let content;
  if (refusal) {
    content = <PageSpinner label="Loading your cart" />;
  } else if (isMissing(query.error)) {
    content = (
      <NotFoundState title="No such shop">
        <p>This cart belongs to a shop that does not exist. Check the link you followed.</p>
        <StateLinks>
          <Link to="/">Go to the home page</Link>
        </StateLinks>
      </NotFoundState>
    );
  } else if (query.isError) {
    content = (
      <ErrorState
        title="Your cart could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    content = <PageSpinner label="Loading your cart" />;
  }
  return (
    <>
      <PageMeta seo={FALLBACK_SEO} />
      {content}
    </>
  );
}

/**
 * /cart/:merchantAccountId: the signed-in customer's cart at one shop, priced as the shop's
 * grades are now (a changed price or an item no longer sold is flagged, never charged silently),
 * the invoice with what is due today and what each subscription costs after, and the card form.
 * Paid, it becomes the order's confirmation.
 */
export function CartPage() {
  const { merchantAccountId = '' } = useParams();
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();

  let content;
  if (isPending) content = <PageSpinner label="Loading" />;
  else if (!user)
    content = (
      <>
        <PageMeta seo={FALLBACK_SEO} />
        <EmptyState title="Log in to see your cart" level={1}>
          <p>Your cart belongs to your account: log in, and you come straight back here.</p>
          <StateLinks>
            <Button onClick={loginModal.open}>Log in</Button>
          </StateLinks>
        </EmptyState>
      </>
    );
  else content = <CartView userId={user.userId} merchantAccountId={merchantAccountId} />;

  return <div className={pageStyles.widePage}>{content}</div>;
}
