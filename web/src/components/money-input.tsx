import type { InputHTMLAttributes } from 'react';
import fieldStyles from './field.module.css';
import styles from './money-input.module.css';
import { FieldLinesBelow, useFieldLines } from './text-field';

/** The most a money field takes, in whole units: more digits than any price the product allows. */
const MAX_WHOLE_DIGITS = 9;

/**
 * What a person typed as an amount, in minor units (cents): "12", "12.5", "12.50", "1,234.50"
 * and "12,50" (a decimal comma) all read; anything else (letters, a minus sign, three decimals)
 * is null rather than a guess, so a typo is never sent as a price.
 */
export function parseMoneyInput(text: string): number | null {
  let plain = text.trim().replace(/\s/g, '');
  // One comma and at most two digits after it, no point: a decimal comma ("12,50").
  if (/^\d+,\d{1,2}$/.test(plain)) plain = plain.replace(',', '.');
  else if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(plain)) plain = plain.replace(/,/g, '');
  const match = new RegExp(`^(\\d{1,${MAX_WHOLE_DIGITS}})(?:\\.(\\d{1,2}))?$`).exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** Minor units as a money field shows them for editing: 1250 → "12.50" (no symbol, no grouping). */
export function moneyInputText(amountMinor: number): string {
  const whole = Math.floor(amountMinor / 100);
  return `${whole}.${String(amountMinor % 100).padStart(2, '0')}`;
}

/** "$" for USD, "€" for EUR; the code itself when the locale has no shorter symbol. */
export function currencySymbol(currency: string, locale = 'en-US'): string {
  try {
    const parts = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).formatToParts(
      0,
    );
    return parts.find((part) => part.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/**
 * An amount in one currency, typed as a person writes it ("12.50") and read with
 * parseMoneyInput: the label names the currency (a screen reader hears it, the symbol before the
 * field is decoration), the hint and the error are read with the field.
 */
export function MoneyInput({
  label,
  currency,
  value,
  onChange,
  hint,
  error,
  ...input
}: {
  label: string;
  /** ISO 4217, upper case. */
  currency: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string | undefined;
  error?: string | undefined;
} & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'type' | 'inputMode' | 'aria-invalid' | 'aria-describedby' | 'id'
>) {
  const field = useFieldLines({ hint, error });
  return (
    <div className={fieldStyles.field}>
      <label className={fieldStyles.label} htmlFor={field.id}>
        {label} ({currency})
      </label>
      <div className={styles.control} data-invalid={error ? true : undefined}>
        <span className={styles.symbol} aria-hidden="true">
          {currencySymbol(currency)}
        </span>
        <input
          className={styles.input}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder="0.00"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...field}
          {...input}
        />
      </div>
      <FieldLinesBelow id={field.id} hint={hint} error={error} />
    </div>
  );
}
