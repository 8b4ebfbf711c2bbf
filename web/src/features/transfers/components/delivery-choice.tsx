import { useId } from 'react';
import type { TransferDelivery } from '@shared/schemas/transfers';
import styles from './send-options.module.css';

const CHOICES: readonly { value: TransferDelivery; name: string; detail: string }[] = [
  { value: 'email', name: 'Send by email', detail: 'Each recipient is emailed a link of their own.' },
  {
    value: 'link',
    name: 'Get a link',
    detail: 'Share one link as you like: anyone who has it can download, no account needed.',
  },
];

/** How the transfer goes out: emailed to recipients, or a link the sender shares. */
export function DeliveryChoice({
  value,
  onChange,
  disabled,
}: {
  value: TransferDelivery;
  onChange: (value: TransferDelivery) => void;
  disabled: boolean;
}) {
  const name = useId();
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>How to send</legend>
      <div className={styles.choices}>
        {CHOICES.map((choice) => (
          <label key={choice.value} className={styles.choice}>
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              disabled={disabled}
              onChange={() => onChange(choice.value)}
            />
            <span className={styles.choiceText}>
              <span className={styles.choiceName}>{choice.name}</span>
              <span className={styles.choiceDetail}>{choice.detail}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
