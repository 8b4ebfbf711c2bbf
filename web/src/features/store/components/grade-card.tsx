import { useId } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import type { GradeView, ShopView } from '../api/store-keys';
import { everyCycle, formatMoney, perCycle } from '../lib/format';
import { gradePath } from '../lib/paths';
import { PurchaseControls } from './purchase-controls';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/** "$10.00" and, for a subscription, its cycle: "/month". */
export function GradePrice({ grade }: { grade: GradeView }) {
  return (
    <p className={styles.price}>
      <span className={styles.priceAmount}>{formatMoney(grade.price)}</span>
      {grade.billing.kind === 'subscription' ? (
        <span className={styles.priceCycle}>{perCycle(grade.billing.billingFrequencyMonths)}</span>
      ) : null}
    </p>
  );
}

/** What a grade is: its price, description, what it includes, the add-ons a subscription offers, and how to buy it. */
export function GradeDetails({ grade, shop, describedBy }: { grade: GradeView; shop: ShopView; describedBy: string }) {
  const billing = grade.billing;
  return (
    <>
      <GradePrice grade={grade} />
      {billing.kind === 'subscription' ? (
        <p className={pageStyles.muted}>Billed {everyCycle(billing.billingFrequencyMonths)}, cancel any time.</p>
      ) : null}
      {grade.description ? <p className={styles.lede}>{grade.description}</p> : null}
      {grade.display.features.length ? (
        <ul className={styles.features} aria-label={`What ${grade.name} includes`}>
          {grade.display.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      ) : null}
      {billing.kind === 'subscription' && billing.addOns.length ? (
        <p className={pageStyles.muted}>
          Add-ons you can add later:{' '}
          {billing.addOns
            .map((addOn) => `${addOn.name} (${formatMoney(addOn.price)}${perCycle(billing.billingFrequencyMonths)})`)
            .join(', ')}
          .
        </p>
      ) : null}
      <PurchaseControls grade={grade} shop={shop} describedBy={describedBy} />
    </>
  );
}

/** One grade of a product, as a card among its siblings; its name opens the grade's own page. */
export function GradeCard({ grade, shop }: { grade: GradeView; shop: ShopView }) {
  const titleId = useId();
  return (
    <section className={styles.grade} aria-labelledby={titleId} data-highlight={grade.display.highlighted || undefined}>
      <div className={styles.gradeHeader}>
        <h3 id={titleId} className={styles.gradeName}>
          <Link to={gradePath(grade.productStockId, grade.id)}>{grade.name}</Link>
        </h3>
        {grade.display.badge ? (
          <span className={styles.badge} data-tone="positive">
            {grade.display.badge}
          </span>
        ) : null}
      </div>
      <GradeDetails grade={grade} shop={shop} describedBy={titleId} />
    </section>
  );
}
