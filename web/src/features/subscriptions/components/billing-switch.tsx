import { useId } from 'react';
import type { PriceView } from '../api/subscription-keys';
import { formatMoney, intervalName, perInterval, yearlySaving } from '../lib/format';
import styles from './subscriptions.module.css';

/** What a price comes to, for its option: "$120.00 a year: $10.00 a month, save 17%". */
function describePrice(price: PriceView, monthly: PriceView | undefined): string {
  const base = `${formatMoney(price.price)} ${perInterval(price.interval)}`;
  if (price.interval === 'month') return base;
  const saving = yearlySaving(monthly, price);
  return `${base}: ${formatMoney(price.perMonth)} a month${saving ? `, save ${saving.percent}%` : ''}`;
}

/** Monthly or yearly, as two radio buttons (arrow keys move between them), each with its price. */
export function BillingSwitch({
  prices,
  value,
  onChange,
}: {
  prices: readonly PriceView[];
  value: PriceView['priceId'];
  onChange: (priceId: PriceView['priceId']) => void;
}) {
  const name = useId();
  const monthly = prices.find((price) => price.interval === 'month');
  return (
    <fieldset className={styles.switch}>
      <legend className={styles.switchLegend}>Billing</legend>
      {prices.map((price) => (
        <label key={price.priceId} className={styles.switchOption}>
          <input
            type="radio"
            className={styles.switchInput}
            name={name}
            value={price.priceId}
            checked={value === price.priceId}
            onChange={() => onChange(price.priceId)}
          />
          <span className={styles.switchFace}>
            <span className={styles.switchName}>{intervalName(price.interval)}</span>
            <span className={styles.switchDetail}>{describePrice(price, monthly)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
