import { type ReactNode, useId } from 'react';
import styles from './merchant.module.css';

export interface Choice<T extends string> {
  value: T;
  name: ReactNode;
  /** A line saying what the choice means. */
  detail: ReactNode;
  disabled?: boolean | undefined;
}

/**
 * One choice among a few: radio buttons drawn as cards, each with its name and what it means,
 * under a legend (read by screen readers only where the section's heading already says it).
 */
export function ChoiceFieldset<T extends string>({
  legend,
  hideLegend = false,
  choices,
  value,
  onChange,
  children,
}: {
  legend: string;
  hideLegend?: boolean;
  choices: readonly Choice<T>[];
  value: T | null;
  onChange: (value: T) => void;
  /** A word above the choices (the plan chosen earlier is gone). */
  children?: ReactNode;
}) {
  const name = useId();
  return (
    <fieldset className={styles.fieldset}>
      <legend className={hideLegend ? 'visually-hidden' : styles.legend}>{legend}</legend>
      {children}
      <div className={styles.choices}>
        {choices.map((choice) => (
          <label key={choice.value} className={styles.choice}>
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              disabled={choice.disabled}
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
