import { useId } from 'react';
import { QueriedPaymentMethodForm } from '../../../components/card-form/queried-payment-method-form';
import { track } from '../../../lib/analytics';
import { ApiError } from '../../../lib/api-client';
import { paymentProblemOf } from '../../../lib/payments/payment-problem';
import { useFulfillStoreInvoice } from '../api/fulfill-store-invoice';
import { useShopPaymentClient } from '../api/get-shop-payment-client';
import type { PaymentMethodNonce, ShopView, StoreInvoiceView } from '../api/store-keys';
import { formatMoney } from '../lib/format';
import pageStyles from '../../../components/page.module.css';

/**
 * The card form for the cart's invoice, on the shop's own payment account. A declined card keeps
 * the form with the bank's reason beside it; a 409 (a price changed, an item stopped being sold
 * since the invoice was made) is the page's to explain: `onStale` refetches the cart and says
 * what changed, and nothing was charged.
 */
export function CartPayment({
  userId,
  shop,
  invoice,
  onPaid,
  onStale,
  onCodeRefused,
  onAttempt,
}: {
  userId: string;
  shop: ShopView;
  invoice: StoreInvoiceView;
  onPaid: (invoice: StoreInvoiceView) => void;
  onStale: (invoice: StoreInvoiceView) => Promise<void>;
  /** The invoice's discount code could not be used after all (used up meanwhile): the server's words, with the price without it. */
  onCodeRefused: (message: string) => void;
  /** A new attempt begins: what the last one said is out of date. */
  onAttempt: () => void;
}) {
  const titleId = useId();
  const client = useShopPaymentClient(userId, shop.id);
  const fulfill = useFulfillStoreInvoice(userId);

  const pay = async (method: PaymentMethodNonce) => {
    onAttempt();
    try {
      await fulfill.mutateAsync({ invoiceId: invoice.id, method });
    } catch (error) {
      // Nothing was charged: the page takes the code off and shows the price without it.
      if (error instanceof ApiError && error.code?.startsWith('DISCOUNT_CODE')) onCodeRefused(error.message);
      else if (error instanceof ApiError && error.status === 409) await onStale(invoice);
      throw error;
    }
    track('Purchase', { shopId: shop.id, amountMinor: invoice.total.amountMinor, currency: invoice.total.currency });
    onPaid(invoice);
  };

  const problem = fulfill.isError ? paymentProblemOf(fulfill.error) : null;
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Payment
      </h2>
      {invoice.lastDecline && !fulfill.isError ? (
        <p className={pageStyles.muted}>Your last attempt was declined: {invoice.lastDecline.message}</p>
      ) : null}
      <QueriedPaymentMethodForm
        client={client}
        label="Card details"
        submitLabel={`Pay ${formatMoney(invoice.total)}`}
        pendingLabel="Paying…"
        onPaymentMethod={pay}
        // A stale cart is explained above the items, where what changed shows.
        problem={
          problem &&
          problem.kind !== 'conflict' &&
          !(fulfill.error instanceof ApiError && fulfill.error.code?.startsWith('DISCOUNT_CODE')) ? (
            <p>{problem.message}</p>
          ) : null
        }
      />
      <p className={pageStyles.muted}>The card is charged by {shop.shopName}, through its own payment account.</p>
    </section>
  );
}
