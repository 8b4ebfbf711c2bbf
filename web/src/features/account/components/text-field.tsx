import { type InputHTMLAttributes, useId } from 'react';
import styles from './account.module.css';

export interface FieldNote {
  text: string;
  tone?: 'positive' | 'negative' | undefined;
}

/** A labelled input with an optional note under it (a hint or a check) and an error, both read with the input. */
export function TextField({
  label,
  error,
  note,
  ...input
}: { label: string; error?: string | undefined; note?: FieldNote | null | undefined } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'aria-invalid' | 'aria-describedby'
>) {
  const id = useId();
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const describedBy = [note ? noteId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {note ? (
        <p id={noteId} className={styles.hint} data-tone={note.tone} aria-live="polite">
          {note.text}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
