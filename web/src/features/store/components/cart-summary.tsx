import { useQueries } from '@tanstack/react-query';
import { useId } from 'react';
import { productGradeQueryOptions } from '../api/get-product-grade';
import type { StoreInvoiceView } from '../api/store-keys';
import { everyCycle, formatMoney, times } from '../lib/format';
import factsStyles from '../../../components/facts.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/**
 * How often each subscription line bills, read from its grade's page (the invoice line names the
 * price, not the cycle); undefined while that is loading or when it failed.
 */
function useBillingCycles(invoice: StoreInvoiceView): Map<string, number> {
  const subscriptionLines = invoice.lines.filter((line) => line.billing === 'subscription');
  const grades = useQueries({
    queries: subscriptionLines.map((line) => productGradeQueryOptions(line.productStockId, line.productStockGradeId)),
  });
  const cycles = new Map<string, number>();
  for (const grade of grades) {
    const billing = grade.data?.grade.billing;
    if (grade.data && billing?.kind === 'subscription') cycles.set(grade.data.grade.id, billing.billingFrequencyMonths);
  }
  return cycles;
}

/** The invoice: each line, what is due today, and what each subscription costs every cycle after. */
export function CartSummary({ invoice }: { invoice: StoreInvoiceView }) {
  const titleId = useId();
  const cycles = useBillingCycles(invoice);
  const subscriptions = invoice.lines.filter((line) => line.billing === 'subscription');
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Order summary
      </h2>
      <ul className={factsStyles.summaryLines} aria-label="Order lines">
        {invoice.lines.map((line) => (
          <li key={line.productStockGradeId} className={styles.summaryLine}>
            <span>
              {line.description}
              {line.quantity > 1 ? ` × ${line.quantity}` : null}
            </span>
            <span>{formatMoney(times(line.unitPrice, line.quantity))}</span>
          </li>
        ))}
        {invoice.discount ? (
          <li className={`${styles.summaryLine} ${styles.saving}`}>
            <span>Discount ({invoice.discount.code})</span>
            <span>−{formatMoney(invoice.discount.saving)}</span>
          </li>
        ) : null}
      </ul>
      <p className={styles.summaryTotal}>
        <span>Due today</span>
        <span>{formatMoney(invoice.total)}</span>
      </p>
      {subscriptions.length ? (
        <ul className={styles.after} aria-label="After today">
          {subscriptions.map((line) => {
            const months = cycles.get(line.productStockGradeId);
            const every = invoice.discount?.appliesTo === 'every' ? line.discount.amountMinor : 0;
            const later = { ...line.unitPrice, amountMinor: line.unitPrice.amountMinor * line.quantity - every };
            return (
              <li key={line.productStockGradeId}>
                Then {formatMoney(later)} {months ? everyCycle(months) : 'each billing cycle'} for {line.description}, until you
                cancel.
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
