import { type FormEvent, type ReactNode, useId } from 'react';
import { TextField } from '../../../components/text-field';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

/** The highest position a product or a grade can take in its list. */
export const MAX_POSITION = 9_999;

/** A typed position as the whole number it stands for, or why it is not one. */
export function readPosition(typed: string): { position: number } | { error: string } {
  const position = Number(typed);
  if (!/^\d+$/.test(typed.trim()) || position > MAX_POSITION) {
    return { error: `Give a whole number from 0 to ${MAX_POSITION.toLocaleString('en-US')}` };
  }
  return { position };
}

/** Where a product or a grade stands among the others: a whole number, lower first. */
export function PositionField({
  value,
  onChange,
  hint,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  hint: string;
  error: string | undefined;
}) {
  return (
    <TextField
      label="Position"
      type="number"
      inputMode="numeric"
      min={0}
      max={MAX_POSITION}
      step={1}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hint={hint}
      error={error}
    />
  );
}

/**
 * A card with an editor's form (its fields as children) and, beside it from 768 px, a preview of
 * what the form will look like once saved.
 */
export function EditorSection({
  title,
  onSubmit,
  previewLabel,
  preview,
  children,
}: {
  title: string;
  onSubmit: (event: FormEvent) => void;
  previewLabel: string;
  preview: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  const previewId = useId();
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        {title}
      </h2>
      <div className={styles.editor}>
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
          {children}
        </form>
        <div className={styles.previewColumn} role="region" aria-labelledby={previewId}>
          <p id={previewId} className={styles.previewLabel}>
            {previewLabel}
          </p>
          {preview}
        </div>
      </div>
    </section>
  );
}
